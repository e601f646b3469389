"""chainer.functions.evaluation."""
