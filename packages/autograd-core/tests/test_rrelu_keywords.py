"""rrelu's keyword arguments: ``r`` must be an array (or Variable), ``return_r`` returns it."""

import numpy
import pytest

import chainer
import chainer.functions as F


def test_rrelu_r_bool_is_a_type_error() -> None:
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='must be an array'):
        F.rrelu(x, r=True)


def test_rrelu_return_r_gives_the_slopes_used() -> None:
    x = numpy.array([[-1.0, 2.0, -3.0]], numpy.float32)
    r = numpy.array([[0.2, 0.25, 0.3]], numpy.float32)
    with chainer.using_config('train', True):
        y, r_used = F.rrelu(x, r=chainer.Variable(r), return_r=True)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_array_equal(r_used, r)
    numpy.testing.assert_allclose(y.array, numpy.where(x >= 0, x, x * r))


def test_rrelu_unknown_keyword_is_a_type_error() -> None:
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='unexpected keyword'):
        F.rrelu(x, foo=1)
