"""The gradient a Parameter gets when it is (re-)initialized, as in v7."""

import copy
import pickle

import numpy
import pytest

import chainer


def test_parameter_made_with_a_shape_has_nan_grad_then_none_after_reinitialization():
    p = chainer.Parameter(shape=(2,))
    assert numpy.isnan(p.grad).all()
    p.initialize((2,))
    assert p.grad is None


def test_lazy_parameter_gets_a_nan_grad_at_each_initialization():
    p = chainer.Parameter()
    p.initialize(2)
    assert numpy.isnan(p.grad).all()
    p.initialize(3)
    assert p.grad.shape == (3,) and numpy.isnan(p.grad).all()


def test_cleared_or_zeroed_lazy_parameter():
    p = chainer.Parameter()
    p.cleargrad()
    p.initialize(2)
    assert p.grad is None
    q = chainer.Parameter()
    with pytest.warns(DeprecationWarning):
        q.zerograd()
    q.initialize(2)
    numpy.testing.assert_array_equal(q.grad, [0, 0])


def test_copies_get_a_nan_grad_when_reinitialized():
    p = chainer.Parameter(shape=(2,))
    p.initialize((2,))
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert q.grad is None
        numpy.testing.assert_array_equal(q.array, p.array)
        q.initialize((2,))
        assert numpy.isnan(q.grad).all()


def test_integer_parameter_has_no_grad():
    p = chainer.Parameter(chainer.initializers.Constant(1, dtype=numpy.int32), (2,))
    assert p.grad is None
