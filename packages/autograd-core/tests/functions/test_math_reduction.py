"""Reductions and scans: max/min, argmax/argmin, logsumexp, prod, cumsum, cumprod, sum,
mean/average and batch_l2_norm_squared."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

AXES = [None, 0, -1, (0, 2), (1,)]
AXIS_IDS = ['all', '0', '-1', '(0,2)', '(1,)']


def _distinct(fc, shape, dtype):
    """Values well apart from each other (no ties for max/min)."""
    n = int(numpy.prod(shape))
    return (fc.rng.permutation(n).reshape(shape) * 0.25 - n / 8).astype(dtype)


@pytest.mark.parametrize('fn,ref', [(F.max, numpy.amax), (F.min, numpy.amin)],
                         ids=['max', 'min'])
@pytest.mark.parametrize('axis', AXES, ids=AXIS_IDS)
@pytest.mark.parametrize('keepdims', [False, True])
def test_max_min(fc, dtype, fn, ref, axis, keepdims):
    x = _distinct(fc, (3, 2, 4), dtype)
    f = lambda x: fn(x, axis=axis, keepdims=keepdims)  # noqa: E731
    fc.check_forward(f, (x,), ref(x, axis=axis, keepdims=keepdims), dtype)
    if dtype == numpy.float64:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_max_ties_and_edges(fc):
    v = chainer.Variable(numpy.array([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]], numpy.float32))
    F.sum(F.max(v, axis=1)).backward()
    numpy.testing.assert_array_equal(v.grad, [[0, 1, 1], [1, 0, 0]])
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda x: F.max(x, 1), (fc.noncontiguous(x),), x.max(1))
    s = numpy.asarray(numpy.float32(2))
    assert F.min(s).array == 2 and F.min(s).shape == ()
    assert F.max(numpy.zeros((0, 3), numpy.float32), axis=1).shape == (0,)
    with pytest.raises(ValueError):
        F.max(numpy.zeros((0, 3), numpy.float32), axis=0)
    with pytest.raises(InvalidType):
        F.max(x, axis=2)
    with pytest.raises(InvalidType):
        F.min(numpy.arange(3))
    with pytest.raises(TypeError):
        F.max(x, axis=1.5)
    with pytest.raises(ValueError):
        F.max(x, axis=(1, 1))


@pytest.mark.parametrize('fn,ref', [(F.argmax, numpy.argmax), (F.argmin, numpy.argmin)],
                         ids=['argmax', 'argmin'])
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
def test_argmax_argmin(fc, dtype, fn, ref, axis):
    x = _distinct(fc, (3, 4), dtype)
    v = chainer.Variable(x)
    y = fn(v, axis=axis)
    assert y.dtype == numpy.int32
    assert y.requires_grad is False
    assert isinstance(y.array, numpy.ndarray)
    numpy.testing.assert_array_equal(y.array, ref(x, axis=axis))


def test_argmax_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    numpy.testing.assert_array_equal(F.argmax(fc.noncontiguous(x), 1).array, x.argmax(1))
    assert F.argmin(numpy.asarray(numpy.float32(1))).array == 0
    assert F.argmax(numpy.zeros((0, 3), numpy.float32), axis=1).shape == (0,)
    with pytest.raises(ValueError):
        F.argmax(numpy.zeros((0,), numpy.float32))
    with pytest.raises(InvalidType):
        F.argmax(x, axis=3)
    with pytest.raises(TypeError):
        F.argmin(x, axis=(0, 1))
    with pytest.raises(InvalidType):
        F.argmax(numpy.arange(3))


def _logsumexp(x, axis):
    x = x.astype(numpy.float64)
    m = x.max(axis=axis, keepdims=True)
    return (numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True)) + m).squeeze(
        axis=axis if axis is not None else tuple(range(x.ndim)))


@pytest.mark.parametrize('axis', AXES, ids=AXIS_IDS)
def test_logsumexp(fc, dtype, axis):
    x = fc.uniform((3, 2, 4), dtype, -2, 2)
    f = lambda x: F.logsumexp(x, axis)  # noqa: E731
    fc.check_forward(f, (x,), _logsumexp(x, axis).astype(dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
    if dtype == numpy.float64:
        fc.check_double_backward(f, (x,), dtype)


def test_logsumexp_stable_and_edges(fc):
    x = numpy.array([[1000.0, 1000.0], [-1000.0, -1000.0]], numpy.float32)
    numpy.testing.assert_allclose(F.logsumexp(x, axis=1).array,
                                  [1000 + numpy.log(2), -1000 + numpy.log(2)], rtol=1e-6)
    y = F.logsumexp(numpy.array([-numpy.inf, -numpy.inf], numpy.float32))
    assert y.array == -numpy.inf
    e = F.logsumexp(numpy.zeros((2, 0), numpy.float32), axis=1)
    numpy.testing.assert_array_equal(e.array, [-numpy.inf, -numpy.inf])
    assert F.logsumexp(numpy.zeros((0, 3), numpy.float32), axis=1).shape == (0,)
    s = numpy.asarray(numpy.float32(0.5))
    numpy.testing.assert_allclose(F.logsumexp(s).array, 0.5)
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda x: F.logsumexp(x, 1), (fc.noncontiguous(x),), _logsumexp(x, 1))
    with pytest.raises(InvalidType):
        F.logsumexp(x, axis=2)
    with pytest.raises(InvalidType):
        F.logsumexp(numpy.arange(3))


@pytest.mark.parametrize('axis', AXES, ids=AXIS_IDS)
@pytest.mark.parametrize('keepdims', [False, True])
def test_prod(fc, dtype, axis, keepdims):
    x = fc.uniform((3, 2, 4), dtype, 0.5, 1.5) * numpy.sign(fc.uniform((3, 2, 4), dtype))
    x = x.astype(dtype)
    f = lambda x: F.prod(x, axis, keepdims)  # noqa: E731
    fc.check_forward(f, (x,), numpy.prod(x.astype(numpy.float64), axis=axis,
                                         keepdims=keepdims).astype(dtype), dtype)
    if dtype == numpy.float64:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


@pytest.mark.parametrize('axis', [None, 1, (0, 1)])
def test_prod_with_zeros(fc, axis):
    x = fc.uniform((3, 4), numpy.float64, 0.5, 1.5)
    x[0, 1] = 0          # one zero in a row
    x[1, 0] = x[1, 2] = 0  # two zeros in a row
    f = lambda x: F.prod(x, axis)  # noqa: E731
    fc.check_backward(f, (x,), numpy.float64)
    fc.check_double_backward(f, (x,), numpy.float64)
    v = chainer.Variable(x)
    F.sum(F.prod(v, axis=1)).backward()
    expected = numpy.zeros_like(x)
    expected[0, 1] = numpy.prod(numpy.delete(x[0], 1))
    expected[2] = numpy.prod(x[2]) / x[2]
    numpy.testing.assert_allclose(v.grad, expected)


@pytest.mark.parametrize('fn', [F.max, F.min, F.prod, F.logsumexp],
                         ids=['max', 'min', 'prod', 'logsumexp'])
def test_axis_must_be_none_int_or_tuple(fn):
    x = numpy.ones((3, 2, 4), numpy.float32)
    for bad in ([0], (1, 'x'), 1.0):
        with pytest.raises(TypeError):
            fn(x, axis=bad)
    with pytest.raises(ValueError):
        fn(x, axis=(0, 0))


def test_prod_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda x: F.prod(x, 1), (fc.noncontiguous(x),), x.prod(1))
    numpy.testing.assert_array_equal(F.prod(numpy.zeros((2, 0), numpy.float32), 1).array,
                                     [1, 1])
    assert F.prod(numpy.asarray(numpy.float32(3))).array == 3
    with pytest.raises(InvalidType):
        F.prod(x, axis=-3)
    with pytest.raises(InvalidType):
        F.prod(numpy.arange(3))


@pytest.mark.parametrize('fn,ref', [(F.cumsum, numpy.cumsum), (F.cumprod, numpy.cumprod)],
                         ids=['cumsum', 'cumprod'])
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
def test_cumulative(fc, dtype, fn, ref, axis):
    x = fc.uniform((3, 4), dtype, 0.5, 1.5)
    f = lambda x: fn(x, axis)  # noqa: E731
    fc.check_forward(f, (x,), ref(x.astype(numpy.float64), axis=axis).astype(dtype), dtype)
    if dtype == numpy.float64:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)
    elif dtype == numpy.float32:
        fc.check_backward(f, (x,), dtype)


def test_cumprod_with_zeros(fc):
    x = fc.uniform((3, 5), numpy.float64, 0.5, 1.5)
    x[0, 2] = 0
    x[1, 0] = x[1, 3] = 0
    f = lambda x: F.cumprod(x, 1)  # noqa: E731
    fc.check_forward(f, (x,), numpy.cumprod(x, 1), numpy.float64)
    fc.check_backward(f, (x,), numpy.float64)
    fc.check_double_backward(f, (x,), numpy.float64)


@pytest.mark.parametrize('fn,ref', [(F.cumsum, numpy.cumsum), (F.cumprod, numpy.cumprod)],
                         ids=['cumsum', 'cumprod'])
def test_cumulative_edges_and_errors(fc, fn, ref):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda x: fn(x, 1), (fc.noncontiguous(x),), ref(x, 1))
    assert fn(numpy.zeros((0, 3), numpy.float32), 1).shape == (0, 3)
    assert fn(numpy.asarray(numpy.float32(2))).shape == (1,)
    with pytest.raises(InvalidType):
        fn(x, axis=2)
    with pytest.raises(TypeError):
        fn(x, axis=(0, 1))
    with pytest.raises(InvalidType):
        fn(numpy.arange(3))


@pytest.mark.parametrize('axis', AXES, ids=AXIS_IDS)
@pytest.mark.parametrize('keepdims', [False, True])
def test_sum(fc, dtype, axis, keepdims):
    x = fc.uniform((3, 2, 4), dtype)
    f = lambda x: F.sum(x, axis, keepdims)  # noqa: E731
    fc.check_forward(f, (x,), x.astype(numpy.float64).sum(axis=axis, keepdims=keepdims)
                     .astype(dtype), dtype)
    if dtype == numpy.float64:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_sum_edges_and_sum_to(fc):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda x: F.sum(x, 0), (fc.noncontiguous(x),), x.sum(0))
    assert F.sum(numpy.zeros((0, 3), numpy.float32)).array == 0
    assert F.sum(numpy.asarray(numpy.float32(2))).shape == ()
    fc.check_forward(lambda x: F.sum_to(x, (1, 4)), (x,), x.sum(0, keepdims=True))
    fc.check_backward(lambda x: F.sum_to(x, (4,)), (x.astype(numpy.float64),),
                      numpy.float64)
    fc.check_double_backward(lambda x: F.sum_to(x, (3, 1)), (x.astype(numpy.float64),),
                             numpy.float64)
    with pytest.raises(InvalidType):
        F.sum(x, axis=2)
    with pytest.raises(InvalidType):
        F.sum(numpy.arange(3))


@pytest.mark.parametrize('axis', [None, 1, (0, 2)])
@pytest.mark.parametrize('keepdims', [False, True])
def test_mean_average(fc, dtype, axis, keepdims):
    x = fc.uniform((3, 2, 4), dtype)
    ref = x.astype(numpy.float64).mean(axis=axis, keepdims=keepdims).astype(dtype)
    fc.check_forward(lambda x: F.mean(x, axis, keepdims=keepdims), (x,), ref, dtype)
    fc.check_forward(lambda x: F.average(x, axis, keepdims=keepdims), (x,), ref, dtype)
    if dtype == numpy.float64:
        f = lambda x: F.mean(x, axis, None, keepdims)  # noqa: E731
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_mean_float16_accumulates_in_float32(fc):
    # as numpy.mean (and v7): the float16 sum is not rounded before the division
    x = (numpy.arange(30).reshape(3, 10) * 0.37 + 100).astype(numpy.float16)
    expected = x.astype(numpy.float32).mean(axis=1).astype(numpy.float16)
    numpy.testing.assert_array_equal(F.mean(x, axis=1).array, expected)
    assert F.mean(x, axis=1).array[0] == numpy.float16(101.7)
    y = F.mean(x, keepdims=True)
    assert y.shape == (1, 1) and y.dtype == numpy.float16


def test_weighted_average(fc):
    x = fc.uniform((3, 4), numpy.float64)
    w = fc.uniform((4,), numpy.float64, 0.5, 1.5)
    f = lambda x, w: F.average(x, axis=1, weights=w)  # noqa: E731
    fc.check_forward(f, (x, w), numpy.average(x, axis=1, weights=w), numpy.float64)
    fc.check_backward(f, (x, w), numpy.float64)
    fc.check_double_backward(f, (x, w), numpy.float64)
    with pytest.raises(ValueError):
        F.average(x, axis=1, weights=numpy.ones(3))
    with pytest.raises(ValueError):
        F.average(x, axis=(0, 1), weights=numpy.ones((3, 4)))


@pytest.mark.parametrize('keepdims', [False, True])
def test_weighted_average_all_axes(fc, keepdims):
    # axis=None: weights of the shape of x (v7 also broadcasts smaller ones to it)
    x = fc.uniform((3, 4), numpy.float64)
    w = fc.uniform((3, 4), numpy.float64, 0.5, 1.5)
    f = lambda x, w: F.average(x, weights=w, keepdims=keepdims)  # noqa: E731
    expected = numpy.average(x, weights=w).reshape((1, 1) if keepdims else ())
    fc.check_forward(f, (x, w), expected, numpy.float64)
    fc.check_backward(f, (x, w), numpy.float64)
    w1 = w[0]
    fc.check_forward(lambda x, w: F.average(x, weights=w), (x, w1),
                     numpy.array((x * w1).sum() / w1.sum()), numpy.float64)


@pytest.mark.parametrize('shape', [(3, 4), (3, 2, 2), (2, 1)])
def test_batch_l2_norm_squared(fc, dtype, shape):
    x = fc.uniform(shape, dtype)
    expected = (x.astype(numpy.float64).reshape(len(x), -1) ** 2).sum(1).astype(dtype)
    fc.check_forward(F.batch_l2_norm_squared, (x,), expected, dtype)
    if dtype != numpy.float16:
        fc.check_backward(F.batch_l2_norm_squared, (x,), dtype)
        fc.check_double_backward(F.batch_l2_norm_squared, (x,), dtype)


def test_batch_l2_norm_squared_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(F.batch_l2_norm_squared, (fc.noncontiguous(x),), (x ** 2).sum(1))
    assert F.batch_l2_norm_squared(numpy.zeros((0, 3), numpy.float32)).shape == (0,)
    numpy.testing.assert_array_equal(
        F.batch_l2_norm_squared(numpy.zeros((2, 0), numpy.float32)).array, [0, 0])
    with pytest.raises(InvalidType):
        F.batch_l2_norm_squared(numpy.zeros(3, numpy.float32))
    with pytest.raises(InvalidType):
        F.batch_l2_norm_squared(numpy.zeros((3, 2), numpy.int32))
