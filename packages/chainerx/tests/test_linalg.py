"""chainerx.linalg: values against NumPy's LAPACK results, identities of the factors,
gradients of the first and second order numerically, errors for bad input."""

import numpy
import pytest
from numeric_grad import check_first_and_second_order

import chainerx

L = chainerx.linalg
rng = numpy.random.RandomState(5)


def _np(a):
    return chainerx.to_numpy(a)


def _sym(x):
    return (x + chainerx.transpose(x)) * 0.5


def _well_conditioned(n):
    return rng.uniform(-1, 1, (n, n)) + 3 * numpy.eye(n)


def test_inv_and_solve():
    a, b = _well_conditioned(3), rng.uniform(-1, 1, (3, 2))
    numpy.testing.assert_allclose(_np(L.inv(chainerx.array(a))), numpy.linalg.inv(a))
    numpy.testing.assert_allclose(_np(L.solve(chainerx.array(a), chainerx.array(b))),
                                  numpy.linalg.solve(a, b))
    x = L.solve(chainerx.array(a, 'float64'), chainerx.array(b, 'float32'))
    assert x.dtype == chainerx.float64
    check_first_and_second_order(L.inv, a)
    check_first_and_second_order(L.solve, a, b)
    check_first_and_second_order(L.solve, a, b[:, 0])
    # empty systems, and their (empty) gradients
    for rhs in ((0,), (0, 3)):
        x = L.solve(chainerx.zeros((0, 0), 'float64').require_grad(),
                    chainerx.zeros(rhs, 'float64'))
        assert x.shape == rhs
        x.sum().backward()


def test_cholesky():
    m = _well_conditioned(3)
    spd = m @ m.T
    low = _np(L.cholesky(chainerx.array(spd)))
    numpy.testing.assert_allclose(low, numpy.linalg.cholesky(spd))
    assert (numpy.triu(low, 1) == 0).all()
    check_first_and_second_order(lambda x: L.cholesky(_sym(x)), spd)
    with pytest.raises(chainerx.ChainerxError):
        L.cholesky(chainerx.array([[1, -2], [-2, 1]], 'float32'))


@pytest.mark.parametrize('uplo', ['L', 'u'])
def test_eigh(uplo):
    s = rng.uniform(-1, 1, (3, 3))
    s = s + s.T
    w, v = L.eigh(chainerx.array(s), uplo)
    ew, ev = numpy.linalg.eigh(s, uplo.upper())
    numpy.testing.assert_allclose(_np(w), ew)
    numpy.testing.assert_allclose(numpy.abs(_np(v)), numpy.abs(ev))
    numpy.testing.assert_allclose(_np(L.eigvalsh(chainerx.array(s))), ew)
    check_first_and_second_order(lambda x: L.eigh(_sym(x), uplo)[0], s)
    check_first_and_second_order(lambda x: chainerx.absolute(L.eigh(_sym(x), uplo)[1]), s)


def test_eigh_rejects_bad_uplo():
    a = chainerx.eye(2)
    with pytest.raises(TypeError):
        L.eigh(a, None)
    with pytest.raises(ValueError):
        L.eigh(a, 'lower')
    with pytest.raises(chainerx.ChainerxError):
        L.eigvalsh(a, 'A')


@pytest.mark.parametrize('shape', [(3, 3), (3, 2), (2, 3), (1, 1)])
def test_svd_and_pinv(shape):
    a = rng.uniform(-1, 1, shape)
    u, s, vt = L.svd(chainerx.array(a), full_matrices=False)
    numpy.testing.assert_allclose(_np(u) * _np(s) @ _np(vt), a, atol=1e-12)
    numpy.testing.assert_allclose(_np(s), numpy.linalg.svd(a, compute_uv=False))
    numpy.testing.assert_allclose(_np(L.svd(chainerx.array(a), compute_uv=False)),
                                  numpy.linalg.svd(a, compute_uv=False))
    full_u = L.svd(chainerx.array(a))[0]
    assert full_u.shape == (shape[0], shape[0])
    numpy.testing.assert_allclose(_np(L.pinv(chainerx.array(a))), numpy.linalg.pinv(a))
    check_first_and_second_order(lambda x: L.svd(x, False)[1], a)
    check_first_and_second_order(lambda x: chainerx.absolute(L.svd(x, False)[0]), a)
    check_first_and_second_order(lambda x: chainerx.absolute(L.svd(x, False)[2]), a)
    check_first_and_second_order(L.pinv, a)


@pytest.mark.parametrize('shape', [(3, 3), (3, 2)])
def test_qr(shape):
    a = rng.uniform(-1, 1, shape) + numpy.eye(*shape)
    q, r = L.qr(chainerx.array(a))
    eq, er = numpy.linalg.qr(a)
    numpy.testing.assert_allclose(_np(q), eq)
    numpy.testing.assert_allclose(_np(r), er)
    numpy.testing.assert_allclose(_np(L.qr(chainerx.array(a), 'r')), er)
    h, tau = L.qr(chainerx.array(a), 'raw')
    numpy.testing.assert_allclose(_np(h), numpy.linalg.qr(a, 'raw')[0])
    assert L.qr(chainerx.array(a), 'complete')[0].shape == (shape[0], shape[0])
    check_first_and_second_order(lambda x: L.qr(x)[0], a)
    check_first_and_second_order(lambda x: L.qr(x)[1], a)


@pytest.mark.parametrize('name', ['inv', 'cholesky', 'eigh', 'eigvalsh', 'svd', 'pinv',
                                  'qr'])
def test_shapes_and_dtypes_checked(name):
    f = getattr(L, name)
    with pytest.raises(chainerx.DtypeError):
        f(chainerx.ones((2, 2), 'float16'))
    with pytest.raises(chainerx.DimensionError):
        f(chainerx.ones((), 'float32'))
    if name not in ('svd', 'pinv', 'qr'):
        with pytest.raises(chainerx.DimensionError):
            f(chainerx.ones((2, 3), 'float32'))
    with pytest.raises(ValueError):
        L.qr(chainerx.ones(()), 'bad_mode')
    with pytest.raises(chainerx.DimensionError):
        L.solve(chainerx.ones((2, 3)), chainerx.ones((2, 3)))
    with pytest.raises(chainerx.ChainerxError):
        L.inv(chainerx.zeros((2, 2)))


def test_pinv_with_singular_values_cut():
    u, _ = numpy.linalg.qr(rng.uniform(-1, 1, (3, 3)))
    v, _ = numpy.linalg.qr(rng.uniform(-1, 1, (3, 3)))
    a = u @ numpy.diag([3.0, 1.0, 0.2]) @ v.T
    expected = numpy.linalg.pinv(a, rcond=0.3)  # 0.2 < 0.3 * 3 is cut
    numpy.testing.assert_allclose(_np(L.pinv(chainerx.array(a), 0.3)), expected, atol=1e-12)
    check_first_and_second_order(lambda x: L.pinv(x, 0.3), a)
    assert L.pinv(chainerx.zeros((0, 3))).shape == (3, 0)
