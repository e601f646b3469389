"""chainer.functions.connection."""
