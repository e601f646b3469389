"""GPU (CuPy) variants of the math function tests: the same forward references and
gradient checks on cupy arrays. Deselected on CPU CI (``-m "not gpu"``)."""

import numpy
import pytest

import chainer
import chainer.functions as F

F32, F64 = numpy.float32, numpy.float64

UNARY = [
    (F.exp, numpy.exp, (-1, 1)), (F.log, numpy.log, (0.5, 2)), (F.log2, numpy.log2, (0.5, 2)),
    (F.log10, numpy.log10, (0.5, 2)), (F.expm1, numpy.expm1, (-1, 1)),
    (F.log1p, numpy.log1p, (-0.5, 1)), (F.sin, numpy.sin, (-2, 2)), (F.cos, numpy.cos, (-2, 2)),
    (F.tan, numpy.tan, (-1, 1)), (F.arcsin, numpy.arcsin, (-0.7, 0.7)),
    (F.arccos, numpy.arccos, (-0.7, 0.7)), (F.arctan, numpy.arctan, (-2, 2)),
    (F.sinh, numpy.sinh, (-1, 1)), (F.cosh, numpy.cosh, (-1, 1)),
    (F.arctanh, numpy.arctanh, (-0.7, 0.7)), (F.sqrt, numpy.sqrt, (0.5, 2)),
    (F.rsqrt, lambda x: 1 / numpy.sqrt(x), (0.5, 2)), (F.square, numpy.square, (-1, 1)),
    (F.absolute, numpy.abs, (0.2, 1)),
]


def _cp():
    return pytest.importorskip('cupy')


def _close(y, expected, **tol):
    cupy = _cp()
    assert isinstance(y.array, cupy.ndarray)
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), expected,
                                  **(tol or {'rtol': 1e-4, 'atol': 1e-5}))


@pytest.mark.gpu
@pytest.mark.parametrize('fn,ref,rng', UNARY, ids=[u[0].__name__ for u in UNARY])
def test_unary_gpu(fc, fn, ref, rng):
    cupy = _cp()
    x = fc.uniform((3, 4), F32, *rng)
    _close(fn(cupy.asarray(x)), ref(x))
    fc.check_backward(fn, (cupy.asarray(x.astype(F64)),), F64)
    fc.check_double_backward(fn, (cupy.asarray(x.astype(F64)),), F64)


@pytest.mark.gpu
def test_rounding_and_binary_gpu(fc):
    cupy = _cp()
    x = fc.uniform((3, 4), F32, -3, 3)
    for fn, ref in ((F.floor, numpy.floor), (F.ceil, numpy.ceil), (F.fix, numpy.fix),
                    (F.sign, numpy.sign)):
        y = fn(cupy.asarray(x))
        _close(y, ref(x))
        assert not y.requires_grad
    a = fc.uniform((3, 4), F64, 0.5, 1.5)
    b = fc.uniform((4,), F64, 2, 3)
    for fn, ref in ((F.arctan2, numpy.arctan2), (F.maximum, numpy.maximum),
                    (F.minimum, numpy.minimum), (F.fmod, numpy.fmod),
                    (F.squared_difference, lambda a, b: (a - b) ** 2)):
        ga, gb = cupy.asarray(a), cupy.asarray(b)
        _close(fn(ga, gb), ref(a, b))
        fc.check_backward(fn, (ga, gb), F64)
        fc.check_double_backward(fn, (ga, gb), F64)
    f = lambda x: F.clip(x, -0.5, 0.5)  # noqa: E731
    x = fc.away_from(fc.away_from(fc.uniform((3, 4), F64), 0.5), -0.5)
    _close(f(cupy.asarray(x)), numpy.clip(x, -0.5, 0.5))
    fc.check_backward(f, (cupy.asarray(x),), F64)
    p, u, v = (cupy.asarray(fc.uniform((2, 3), F64)) for _ in range(3))
    fc.check_backward(F.linear_interpolate, (p, u, v), F64)


@pytest.mark.gpu
@pytest.mark.parametrize('axis', [None, 1, (0, 2)])
def test_reductions_gpu(fc, axis):
    cupy = _cp()
    n = 24
    x = (fc.rng.permutation(n).reshape(2, 3, 4) * 0.25 - 2).astype(F64)
    gx = cupy.asarray(x)
    for fn, ref in ((F.max, numpy.amax), (F.min, numpy.amin), (F.prod, numpy.prod),
                    (F.sum, numpy.sum)):
        f = lambda x, fn=fn: fn(x, axis)  # noqa: E731
        _close(f(gx), ref(x, axis=axis), rtol=1e-10)
        fc.check_backward(f, (gx,), F64)
        fc.check_double_backward(f, (gx,), F64)
    f = lambda x: F.logsumexp(x, axis)  # noqa: E731
    m = x.max(axis=axis, keepdims=True)
    ref = numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True)) + m
    _close(f(gx), ref.reshape(f(x).shape), rtol=1e-10)
    fc.check_backward(f, (gx,), F64)
    y = F.argmax(gx, axis=1)
    assert y.dtype == numpy.int32
    _close(y, x.argmax(axis=1))


@pytest.mark.gpu
def test_scans_and_zeros_gpu(fc):
    cupy = _cp()
    x = fc.uniform((3, 4), F64, 0.5, 1.5)
    x[0, 1] = 0
    x[1, 0] = x[1, 2] = 0
    gx = cupy.asarray(x)
    for fn, ref in ((F.cumsum, numpy.cumsum), (F.cumprod, numpy.cumprod)):
        f = lambda x, fn=fn: fn(x, 1)  # noqa: E731
        _close(f(gx), ref(x, axis=1), rtol=1e-10)
        fc.check_backward(f, (gx,), F64)
        fc.check_double_backward(f, (gx,), F64)
    fc.check_backward(lambda x: F.prod(x, 1), (gx,), F64)
    fc.check_double_backward(lambda x: F.prod(x, 1), (gx,), F64)


@pytest.mark.gpu
def test_linalg_gpu(fc):
    cupy = _cp()
    a = cupy.asarray(fc.uniform((2, 3, 4), F64))
    b = cupy.asarray(fc.uniform((2, 4, 2), F64))
    for f in (F.matmul, lambda a, b: F.einsum('bij,bjk->bik', a, b),
              lambda a, b: F.tensordot(a, b, ([0, 2], [0, 1]))):
        fc.check_backward(f, (a, b), F64)
        fc.check_double_backward(f, (a, b), F64)
    m = fc.uniform((2, 3, 3), F64) * 0.5 + numpy.eye(3) * 2
    gm = cupy.asarray(m)
    _close(F.batch_det(gm), numpy.linalg.det(m), rtol=1e-10)
    _close(F.batch_inv(gm), numpy.linalg.inv(m), rtol=1e-10)
    for f in (F.batch_det, F.batch_inv, F.det, F.inv):
        arg = gm if f in (F.batch_det, F.batch_inv) else gm[0]
        fc.check_backward(f, (arg,), F64)
    s = m[0] @ m[0].T
    _close(F.cholesky(cupy.asarray(s)), numpy.linalg.cholesky(s), rtol=1e-10)
    fc.check_backward(lambda a: F.cholesky((a + a.T) * 0.5), (cupy.asarray(s),), F64)
    r, i = fc.uniform((2, 5), F64), fc.uniform((2, 5), F64)
    yr, yi = F.fft((cupy.asarray(r), cupy.asarray(i)))
    z = numpy.fft.fft(r + 1j * i)
    _close(yr, z.real, rtol=1e-10)
    _close(yi, z.imag, rtol=1e-10)
    fc.check_backward(lambda r, i: F.ifft((r, i)), (cupy.asarray(r), cupy.asarray(i)), F64)
    x = cupy.asarray(fc.uniform((2, 3, 4), F32))
    y = cupy.asarray(fc.uniform((3,), F32))
    _close(F.scale(x, y), cupy.asnumpy(x) * cupy.asnumpy(y)[:, None])
    _close(F.bias(x, y), cupy.asnumpy(x) + cupy.asnumpy(y)[:, None])
    _close(F.batch_l2_norm_squared(x), (cupy.asnumpy(x) ** 2).reshape(2, -1).sum(1))


@pytest.mark.gpu
@pytest.mark.parametrize('batched', [False, True])
def test_sparse_matmul_gpu(fc, batched):
    cupy = _cp()
    from chainer.utils import CooMatrix, to_coo

    shape = (2, 3, 4) if batched else (3, 4)
    a = fc.uniform(shape, F64)
    a[fc.rng.uniform(size=shape) < 0.5] = 0
    b = fc.uniform(shape[:-2] + (4, 2), F64)
    sp = to_coo(cupy.asarray(a), ldnz=12 if batched else None)
    cupy.testing.assert_array_equal(sp.to_dense(), cupy.asarray(a))
    _close(F.sparse_matmul(sp, cupy.asarray(b)), a @ b, rtol=1e-10)

    def f(data, dn):
        s = CooMatrix(chainer.as_variable(data).array, sp.row, sp.col, sp.shape)
        s.data = chainer.as_variable(data)
        return F.sparse_matmul(s, dn)

    fc.check_backward(f, (sp.data.array, cupy.asarray(b)), F64)
    fc.check_double_backward(f, (sp.data.array, cupy.asarray(b)), F64)


@pytest.mark.gpu
def test_special_gpu(fc):
    cupy = _cp()
    special = pytest.importorskip('scipy.special')
    pytest.importorskip('cupyx.scipy.special')
    cases = [(F.erf, special.erf, (-2, 2)), (F.erfc, special.erfc, (-2, 2)),
             (F.erfcx, special.erfcx, (-2, 2)), (F.erfinv, special.erfinv, (-0.8, 0.8)),
             (F.erfcinv, special.erfcinv, (0.2, 1.8)), (F.ndtr, special.ndtr, (-2, 2)),
             (F.ndtri, special.ndtri, (0.1, 0.9)), (F.log_ndtr, special.log_ndtr, (-3, 3)),
             (F.lgamma, special.gammaln, (0.5, 3)), (F.digamma, special.digamma, (0.5, 3))]
    for fn, ref, rng in cases:
        x = fc.uniform((2, 3), F64, *rng)
        _close(fn(cupy.asarray(x)), ref(x), rtol=1e-6, atol=1e-8)
        fc.check_backward(fn, (cupy.asarray(x),), F64)
        _close(fn(cupy.asarray(x.astype(numpy.float16))), ref(x), rtol=1e-2, atol=1e-2)
    x = fc.uniform((2, 3), F64, 0.5, 3)
    n = cupy.full((2, 3), 1, numpy.int32)
    _close(F.polygamma(n, cupy.asarray(x)), special.polygamma(1, x), rtol=1e-6)
    fc.check_backward(lambda x: F.polygamma(n, x), (cupy.asarray(x),), F64)
    _close(F.zeta(2.0, cupy.asarray(x)), special.zeta(2.0, x), rtol=1e-6)
    fc.check_backward(lambda q: F.zeta(2.0, q), (cupy.asarray(x),), F64)


@pytest.mark.gpu
def test_operators_gpu(fc):
    cupy = _cp()
    a = cupy.asarray(fc.uniform((2, 3), F64, 0.5, 1.5))
    b = cupy.asarray(fc.uniform((3,), F64, 0.5, 1.5))

    def f(a, b):
        return (2 - a * b) ** 2 / (a + 1) - abs(a - b) ** 0.5 + 3 ** b + F.sum(a @ b)

    fc.check_backward(f, (a, b), F64)
    fc.check_double_backward(f, (a, b), F64)
    v = chainer.Variable(a)
    assert isinstance((v + cupy.ones(3)).array, cupy.ndarray)
