"""chainer.functions.loss."""
