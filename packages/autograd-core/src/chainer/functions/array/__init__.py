"""chainer.functions.array."""
