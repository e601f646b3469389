"""Small models shared by the optimizer tests."""

import numpy

import chainer


class TwoParams(chainer.Link):
    """A link with a matrix and a vector parameter (and one left lazy)."""

    def __init__(self, seed=0, dtype=numpy.float32):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.w = chainer.Parameter(rng.randn(3, 2).astype(dtype))
            self.b = chainer.Parameter(rng.randn(2).astype(dtype))
            self.lazy = chainer.Parameter()


def grads_for(link, step):
    """Deterministic gradients for step ``step`` (returned as {name: array})."""
    rng = numpy.random.RandomState(100 + step)
    return {name: rng.randn(*p.shape).astype(p.dtype)
            for name, p in link.namedparams(include_uninit=False)}


def set_grads(link, grads):
    for name, p in link.namedparams(include_uninit=False):
        p.grad = grads[name].copy()
