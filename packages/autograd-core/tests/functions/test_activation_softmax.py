"""softmax and log_softmax: forward vs NumPy, gradients, stability, edge shapes, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _ref_log_softmax(x, axis):
    x = x.astype(numpy.float64)
    m = x.max(axis=axis, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize('shape,axis', [((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -1),
                                        ((2, 3, 4), 1), ((5,), 0)])
def test_forward(fc, dtype, shape, axis):
    x = fc.uniform(shape, dtype, -3, 3)
    ref = _ref_log_softmax(x, axis)
    fc.check_forward(lambda v: F.softmax(v, axis), (x,), numpy.exp(ref).astype(dtype), dtype)
    fc.check_forward(lambda v: F.log_softmax(v, axis), (x,), ref.astype(dtype), dtype)


def test_default_axis_is_1(fc):
    x = fc.uniform((2, 3, 4), numpy.float32)
    numpy.testing.assert_allclose(F.softmax(x).array.sum(axis=1), numpy.ones((2, 4)),
                                  rtol=1e-6)


@pytest.mark.parametrize('fn', [F.softmax, F.log_softmax])
@pytest.mark.parametrize('axis', [1, 0])
def test_backward(fc, dtype, fn, axis):
    x = fc.uniform((3, 4), dtype, -2, 2)
    f = lambda v: fn(v, axis)  # noqa: E731
    fc.check_backward(f, (x,), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (x,), dtype)


@pytest.mark.parametrize('fn', [F.softmax, F.log_softmax])
def test_backward_3d(fc, fn):
    x = fc.uniform((2, 3, 2), numpy.float64)
    fc.check_double_backward(lambda v: fn(v, 2), (x,), numpy.float64)


def test_stable_for_large_inputs():
    x = numpy.array([[1000.0, 0.0, -1000.0]], numpy.float32)
    y = F.softmax(x).array
    numpy.testing.assert_allclose(y, [[1, 0, 0]], atol=1e-7)
    ly = F.log_softmax(x).array
    assert numpy.isfinite(ly).all()
    numpy.testing.assert_allclose(ly, [[0, -1000, -2000]], rtol=1e-6)
    # log_softmax stays finite where log(softmax) underflows
    assert y[0, 2] == 0
    x16 = numpy.array([[30000, -30000]], numpy.float16)
    assert numpy.isfinite(F.softmax(x16).array).all()
    assert numpy.isfinite(F.log_softmax(x16).array).all()


@pytest.mark.parametrize('fn', [F.softmax, F.log_softmax])
def test_noncontiguous_and_empty(fc, fn):
    x = fc.uniform((3, 4), numpy.float32)
    nc = fc.noncontiguous(x)
    numpy.testing.assert_allclose(fn(nc).array, fn(x).array, rtol=1e-6)
    for shape in [(0, 3), (3, 0), (2, 0, 4)]:
        e = numpy.zeros(shape, numpy.float32)
        y = fn(chainer.Variable(e))
        assert y.shape == shape and y.dtype == numpy.float32
        y.grad = numpy.ones(shape, numpy.float32)
        y.backward()


@pytest.mark.parametrize('fn', [F.softmax, F.log_softmax])
def test_bad_input(fn):
    with pytest.raises(InvalidType):
        fn(numpy.arange(6).reshape(2, 3))
    with pytest.raises(InvalidType, match='axis'):
        fn(numpy.zeros((2, 3), numpy.float32), axis=2)
    with pytest.raises(InvalidType):
        fn(numpy.zeros((), numpy.float32))


@pytest.mark.gpu
@pytest.mark.parametrize('fn', [F.softmax, F.log_softmax])
def test_gpu(fc, fn):
    cupy = pytest.importorskip('cupy')
    x = fc.uniform((3, 4), numpy.float32)
    y = fn(cupy.asarray(x))
    assert isinstance(y.array, cupy.ndarray)
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), fn(x).array, rtol=1e-5, atol=1e-6)
    fc.check_backward(fn, (cupy.asarray(x),), numpy.float32)
    fc.check_double_backward(fn, (cupy.asarray(x),), numpy.float32)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(3, 100), (2, 3, 70), (4, 63), (0, 80), (80,)])
def test_sum_keepdims_matches_numpy(dtype, shape):
    from chainer.functions._util import sum_keepdims

    x = numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)
    for a in (x, x[..., ::-1]):  # C-contiguous (the BLAS route) and not
        y = sum_keepdims(a, a.ndim - 1)
        assert y.shape == a.shape[:-1] + (1,) and y.dtype == dtype
        numpy.testing.assert_allclose(y, a.astype('d').sum(-1, keepdims=True),
                                      rtol=1e-2 if dtype == numpy.float16 else 1e-5,
                                      atol=1e-2 if dtype == numpy.float16 else 1e-5)


def test_sum_keepdims_propagates_inf_and_nan():
    from chainer.functions._util import sum_keepdims

    special = numpy.ones((2, 100), numpy.float32)
    special[0, 5], special[1, 7] = numpy.inf, numpy.nan
    y = sum_keepdims(special, 1)
    assert y[0, 0] == numpy.inf and numpy.isnan(y[1, 0])


@pytest.mark.parametrize('fn', [F.softmax, F.log_softmax])
def test_long_rows(fc, fn):
    # rows of a vocabulary's length go through the BLAS row sums
    x = fc.uniform((3, 500), numpy.float64) * 10
    e = numpy.exp(x - x.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    fc.check_forward(fn, (x,), ref if fn is F.softmax else numpy.log(ref), numpy.float64)
    fc.check_backward(fn, (x,), numpy.float64)
