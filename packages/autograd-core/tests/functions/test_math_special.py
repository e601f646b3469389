"""Special functions (SciPy on the CPU): forward vs scipy.special, gradients, errors and the
error without SciPy."""

import builtins

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

try:
    import scipy.special as special
except ImportError:  # the missing-SciPy test below still runs
    special = None

needs_scipy = pytest.mark.skipif(special is None, reason='SciPy is not installed')


class _Ref:
    """A scipy.special function looked up when called (SciPy may be missing)."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args):
        return getattr(special, self.name)(*args)


# name -> (function, reference, input range)
UNARY = {
    'erf': (F.erf, _Ref('erf'), (-2, 2)),
    'erfc': (F.erfc, _Ref('erfc'), (-2, 2)),
    'erfcx': (F.erfcx, _Ref('erfcx'), (-2, 2)),
    'erfinv': (F.erfinv, _Ref('erfinv'), (-0.8, 0.8)),
    'erfcinv': (F.erfcinv, _Ref('erfcinv'), (0.2, 1.8)),
    'ndtr': (F.ndtr, _Ref('ndtr'), (-2, 2)),
    'ndtri': (F.ndtri, _Ref('ndtri'), (0.1, 0.9)),
    'log_ndtr': (F.log_ndtr, _Ref('log_ndtr'), (-3, 3)),
    'lgamma': (F.lgamma, _Ref('gammaln'), (0.5, 3)),
    'digamma': (F.digamma, _Ref('digamma'), (0.5, 3)),
}
NAMES = sorted(UNARY)


def _x(fc, name, shape, dtype):
    lo, hi = UNARY[name][2]
    return fc.uniform(shape, dtype, lo, hi)


@needs_scipy
@pytest.mark.parametrize('name', NAMES)
def test_forward(fc, dtype, name):
    fn, ref, _ = UNARY[name]
    x = _x(fc, name, (3, 4), dtype)
    tol = {'rtol': 1e-2, 'atol': 5e-3} if dtype == numpy.float16 else {}
    fc.check_forward(fn, (x,), ref(x.astype(numpy.float64)).astype(dtype), dtype, **tol)


@needs_scipy
@pytest.mark.parametrize('name', NAMES)
def test_gradients(fc, name):
    fn = UNARY[name][0]
    x = _x(fc, name, (2, 3), numpy.float64)
    fc.check_backward(fn, (x,), numpy.float64)
    fc.check_double_backward(fn, (x,), numpy.float64, atol=1e-4, rtol=1e-4)
    fc.check_backward(fn, (_x(fc, name, (2, 3), numpy.float32),), numpy.float32,
                      atol=5e-3, rtol=5e-3)


@needs_scipy
@pytest.mark.parametrize('name', NAMES)
def test_edges_and_errors(fc, name):
    fn, ref, _ = UNARY[name]
    x = _x(fc, name, (3, 4), numpy.float32)
    fc.check_forward(fn, (fc.noncontiguous(x),), ref(x).astype(numpy.float32))
    y = fn(numpy.asarray(x[0, 0]))
    assert y.shape == () and isinstance(y.array, numpy.ndarray)
    assert fn(numpy.zeros((0, 2), numpy.float32)).shape == (0, 2)
    with pytest.raises(InvalidType):
        fn(numpy.arange(3))


@needs_scipy
def test_log_ndtr_stable_in_the_tail():
    x = numpy.array([-40.0, -20.0], numpy.float64)
    v = chainer.Variable(x)
    y = F.log_ndtr(v)
    assert numpy.isfinite(y.array).all()
    F.sum(y).backward()
    # d/dx log ndtr(x) = pdf / cdf ~ -x - 1/x for x -> -inf
    numpy.testing.assert_allclose(v.grad, -x - 1 / x, rtol=1e-4)


@needs_scipy
@pytest.mark.parametrize('n', [0, 1, 2])
def test_polygamma(fc, dtype, n):
    x = fc.uniform((3, 4), dtype, 0.5, 3)
    nn = numpy.full((3, 4), n, numpy.int32)
    tol = {'rtol': 1e-2, 'atol': 1e-2} if dtype == numpy.float16 else {}
    fc.check_forward(F.polygamma, (nn, x),
                     special.polygamma(n, x.astype(numpy.float64)).astype(dtype), dtype, **tol)
    if dtype == numpy.float64:
        fc.check_backward(F.polygamma, (nn, x), dtype)
        fc.check_double_backward(F.polygamma, (nn, x), dtype, atol=1e-4, rtol=1e-4)


@needs_scipy
def test_polygamma_broadcast_and_errors(fc):
    x = fc.uniform((2, 3), numpy.float64, 0.5, 3)
    y = F.polygamma(1, x)
    numpy.testing.assert_allclose(y.array, special.polygamma(1, x))
    fc.check_backward(lambda x: F.polygamma(numpy.array([0, 1, 2]), x), (x,), numpy.float64)
    assert F.polygamma(0, numpy.zeros((0,), numpy.float32)).shape == (0,)
    with pytest.raises(InvalidType):
        F.polygamma(numpy.ones(3, numpy.float32), x)
    with pytest.raises(InvalidType):
        F.polygamma(1, numpy.arange(3))


@needs_scipy
@pytest.mark.parametrize('s', [2.0, 3.5])
def test_zeta(fc, dtype, s):
    q = fc.uniform((3, 4), dtype, 0.5, 2)
    tol = {'rtol': 1e-2, 'atol': 1e-2} if dtype == numpy.float16 else {}
    f = lambda q: F.zeta(s, q)  # noqa: E731
    fc.check_forward(f, (q,), special.zeta(s, q.astype(numpy.float64)).astype(dtype), dtype,
                     **tol)
    if dtype == numpy.float64:
        fc.check_backward(f, (q,), dtype)
        fc.check_double_backward(f, (q,), dtype, atol=1e-4, rtol=1e-4)


@needs_scipy
def test_zeta_array_exponent_and_errors(fc):
    q = fc.uniform((2, 3), numpy.float64, 0.5, 2)
    s = numpy.array([2.0, 3.0, 4.0])
    numpy.testing.assert_allclose(F.zeta(s, q).array, special.zeta(s, q))
    fc.check_backward(lambda q: F.zeta(s, q), (q,), numpy.float64)
    assert F.zeta(2.0, numpy.zeros((0,), numpy.float32)).shape == (0,)
    with pytest.raises(InvalidType):
        F.zeta(2.0, numpy.arange(3))


def test_missing_scipy_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == 'scipy.special' or name.startswith('scipy'):
            raise ImportError('No module named scipy')
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(__import__('sys').modules, 'scipy.special', raising=False)
    monkeypatch.delitem(__import__('sys').modules, 'scipy', raising=False)
    monkeypatch.setattr(builtins, '__import__', fake_import)
    x = numpy.ones(3, numpy.float32)
    for fn in (F.erf, F.lgamma, F.ndtr, lambda x: F.zeta(2.0, x)):
        with pytest.raises(ImportError, match=r'chainer-autograd-core\[scipy\]'):
            fn(x)
    # everything else works without SciPy
    numpy.testing.assert_allclose(F.exp(x).array, numpy.exp(x))
