"""Serializable objects built on chainer-autograd-core only (no links needed)."""

import numpy

import chainer


class Holder:
    """Holds parameters, a nested child and plain values, like a small Chain."""

    def __init__(self, seed=0, lazy=True):
        rng = numpy.random.RandomState(seed)
        self.W = chainer.Parameter(rng.randn(3, 2).astype('f'))
        self.lazy = chainer.Parameter(chainer.initializers.Constant(0.0)) if lazy else None
        self.count = seed
        self.ratio = 0.5 * seed
        self.flag = bool(seed)
        self.label = f'holder{seed}'
        self.nothing = None
        self.child = Leaf(seed)

    def serialize(self, serializer):
        data = serializer('W', self.W.array)
        if self.lazy is not None:
            data = serializer('lazy', self.lazy.array)
            if self.lazy.array is None and data is not None:
                self.lazy.initialize(data.shape)
                self.lazy.array[...] = data
        self.count = serializer('count', self.count)
        self.ratio = serializer('ratio', self.ratio)
        self.flag = serializer('flag', self.flag)
        self.label = serializer('label', self.label)
        self.nothing = serializer('nothing', self.nothing)
        self.child.serialize(serializer['child'])


class Leaf:
    def __init__(self, seed=0):
        self.v = numpy.arange(4, dtype=numpy.float64) * (seed + 1)

    def serialize(self, serializer):
        serializer('v', self.v)
