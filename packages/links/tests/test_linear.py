"""Tests of L.Linear: shapes, lazy initialization, forward and backward."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check, initializers
from chainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_forward_matches_numpy(dtype):
    rng = numpy.random.RandomState(1)
    link = L.Linear(3, 2, initialW=initializers.Normal(1.0, dtype=dtype),
                    initial_bias=initializers.Normal(1.0, dtype=dtype))
    x = rng.randn(5, 3).astype(dtype)
    y = link(x)
    assert y.dtype == dtype and y.shape == (5, 2)
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    expected = x.astype('d') @ link.W.array.T.astype('d') + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=tol, atol=tol)


def test_shapes_and_defaults():
    link = L.Linear(3, 2)
    assert link.W.shape == (2, 3) and link.b.shape == (2,)
    assert link.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros(2, 'f'))
    assert [n for n, _ in link.namedparams()] == ['/W', '/b']


def test_nobias_and_initializers():
    link = L.Linear(3, 2, nobias=True, initialW=numpy.ones((2, 3), 'f'))
    assert link.b is None
    assert [n for n, _ in link.namedparams()] == ['/W']
    numpy.testing.assert_array_equal(link.W.array, numpy.ones((2, 3)))
    x = numpy.arange(6, dtype='f').reshape(2, 3)
    numpy.testing.assert_allclose(link(x).array, x.sum(1, keepdims=True).repeat(2, 1))
    link2 = L.Linear(3, 2, initialW=2.0, initial_bias=1.5)
    numpy.testing.assert_array_equal(link2.W.array, numpy.full((2, 3), 2.0))
    numpy.testing.assert_array_equal(link2.b.array, numpy.full(2, 1.5))


def test_lazy_init_from_first_input():
    link = L.Linear(4)
    assert link.in_size is None and link.out_size == 4
    assert link.W.array is None and link.b.shape == (4,)
    x = numpy.ones((2, 3, 5), 'f')
    y = link(x)
    assert link.W.shape == (4, 15)
    assert y.shape == (2, 4)
    link2 = L.Linear(None, 3)
    link2(numpy.ones((6, 2), 'f'))
    assert link2.W.shape == (3, 2)


def test_n_batch_axes():
    link = L.Linear(None, 2)
    y = link(numpy.ones((2, 3, 4), 'f'), n_batch_axes=2)
    assert link.W.shape == (2, 4) and y.shape == (2, 3, 2)


def test_missing_output_size():
    with pytest.raises(ValueError):
        L.Linear(None)


def test_bad_input_size_raises():
    link = L.Linear(3, 2)
    with pytest.raises(type_check.InvalidType, match='LinearFunction'):
        link(numpy.ones((2, 4), 'f'))


def test_backward_check():
    rng = numpy.random.RandomState(2)
    link = L.Linear(3, 2, initial_bias=initializers.Normal(1.0, dtype=numpy.float64),
                    initialW=initializers.Normal(1.0, dtype=numpy.float64))
    x = rng.randn(4, 3)
    gy = rng.randn(4, 2)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b), eps=1e-3,
                                  atol=1e-4, rtol=1e-4)


def test_gradients_match_numpy():
    rng = numpy.random.RandomState(3)
    link = L.Linear(3, 2)
    assert numpy.isnan(link.W.grad).all()  # v7: NaN until cleared, to expose a missing cleargrads
    link.cleargrads()
    x = chainer.Variable(rng.randn(4, 3).astype('f'))
    y = link(x)
    gy = rng.randn(4, 2).astype('f')
    y.grad = gy
    y.backward()
    numpy.testing.assert_allclose(link.W.grad, gy.T @ x.array, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.b.grad, gy.sum(0), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(x.grad, gy @ link.W.array, rtol=1e-5, atol=1e-6)


def test_printable_specs():
    assert str(L.Linear(3, 2)) == 'Linear(in_size=3, out_size=2, nobias=False)'
    assert str(L.Linear(2, nobias=True)) == 'Linear(in_size=None, out_size=2, nobias=True)'


def test_from_params():
    W = numpy.arange(6, dtype='f').reshape(2, 3)
    b = numpy.array([1, 2], 'f')
    link = L.Linear.from_params(W, b)
    assert (link.in_size, link.out_size) == (3, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    assert link.W.array is not W
    link = L.Linear.from_params(chainer.Variable(W), nobias=True)
    assert link.b is None
    with pytest.raises(ValueError, match='size of `b`'):
        L.Linear.from_params(W, numpy.ones(3, 'f'))
    with pytest.raises(ValueError, match='2-dimensional'):
        L.Linear.from_params(numpy.ones(3, 'f'))
    with pytest.raises(NotImplementedError):
        chainer.Link.from_params()


def test_parameter_link():
    arr = numpy.arange(3, dtype='f')
    link = L.Parameter(arr)
    assert link() is link.W and link.W.array is arr
    assert [n for n, _ in link.namedparams()] == ['/W']
    assert link.xp is numpy
