"""check_backward accepts a parameter that the first call of func initializes (v7)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check


def test_parameter_initialized_by_the_first_forward():
    p = chainer.Parameter(chainer.initializers.Constant(0.5, 'd'))

    def f(x):
        if p.array is None:
            p.initialize(x.shape[1:])
        return x * F.broadcast_to(p, x.shape)

    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 2))
    gy = numpy.random.RandomState(1).uniform(-1, 1, (3, 2))
    gradient_check.check_backward(f, x, gy, params=p)
    assert p.shape == (2,)


def test_parameter_left_uninitialized_is_an_error():
    p = chainer.Parameter()
    with pytest.raises(ValueError, match='params\\[0\\] is not initialized'):
        gradient_check.check_backward(lambda x: x * 2, numpy.ones(2), numpy.ones(2), params=p)
