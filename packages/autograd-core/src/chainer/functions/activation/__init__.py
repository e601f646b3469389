"""chainer.functions.activation."""
