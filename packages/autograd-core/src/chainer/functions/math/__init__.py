"""chainer.functions.math."""
