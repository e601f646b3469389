"""Tests of gaussian_kl_divergence, gaussian_nll, bernoulli_nll, cross_covariance
and decov."""

import math

import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _reduce(v, reduce):
    if reduce == 'sum':
        return v.sum()
    if reduce == 'mean':
        return v.mean()
    return v


REDUCES = ['sum', 'mean', 'no']


@pytest.mark.parametrize('reduce', REDUCES)
def test_gaussian_kl_divergence(fc, dtype, reduce):
    mean = fc.uniform((3, 4), dtype)
    ln_var = fc.uniform((3, 4), dtype)
    m, v = mean.astype('d'), ln_var.astype('d')
    ref = _reduce(0.5 * (m * m + numpy.exp(v) - v - 1), reduce)
    f = lambda m, v: F.gaussian_kl_divergence(m, v, reduce)  # noqa: E731
    fc.check_forward(f, (mean, ln_var), numpy.asarray(ref, dtype), dtype)
    fc.check_backward(f, (mean, ln_var), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (mean, ln_var), dtype)


@pytest.mark.parametrize('reduce', REDUCES)
def test_gaussian_nll(fc, dtype, reduce):
    x, mean, ln_var = (fc.uniform((3, 4), dtype) for _ in range(3))
    xd, m, v = x.astype('d'), mean.astype('d'), ln_var.astype('d')
    ref = _reduce(0.5 * (v + math.log(2 * math.pi)) + 0.5 * (xd - m) ** 2 * numpy.exp(-v),
                  reduce)
    f = lambda x, m, v: F.gaussian_nll(x, m, v, reduce)  # noqa: E731
    fc.check_forward(f, (x, mean, ln_var), numpy.asarray(ref, dtype), dtype)
    fc.check_backward(f, (x, mean, ln_var), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (x, mean, ln_var), dtype)


def test_gaussian_nll_broadcast(fc):
    x = fc.uniform((3, 4), numpy.float64)
    mean = fc.uniform((4,), numpy.float64)
    ln_var = fc.uniform((3, 1), numpy.float64)
    ref = 0.5 * (ln_var + math.log(2 * math.pi)) + 0.5 * (x - mean) ** 2 * numpy.exp(-ln_var)
    f = lambda x, m, v: F.gaussian_nll(x, m, v, 'no')  # noqa: E731
    fc.check_forward(f, (x, mean, ln_var), ref, numpy.float64)
    fc.check_backward(f, (x, mean, ln_var), numpy.float64)


@pytest.mark.parametrize('reduce', REDUCES)
def test_bernoulli_nll(fc, dtype, reduce):
    x = (fc.uniform((3, 4), dtype) > 0).astype(dtype)
    y = fc.uniform((3, 4), dtype, -3, 3)
    p = 1 / (1 + numpy.exp(-y.astype('d')))
    ref = _reduce(-(x * numpy.log(p) + (1 - x) * numpy.log(1 - p)), reduce)
    f = lambda x, y: F.bernoulli_nll(x, y, reduce)  # noqa: E731
    fc.check_forward(f, (x, y), numpy.asarray(ref, dtype), dtype)
    fc.check_backward(f, (x, y), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (x, y), dtype)


def test_vae_losses_edges(fc):
    a = fc.uniform((2, 3), numpy.float32)
    na = fc.noncontiguous(a)
    ref = 0.5 * (a * a + numpy.exp(a) - a - 1)
    fc.check_forward(lambda m, v: F.gaussian_kl_divergence(m, v, 'no'), (na, na), ref)
    big = numpy.array([1000.0, -1000.0], numpy.float32)
    out = F.bernoulli_nll(numpy.array([1.0, 0.0], numpy.float32), big, 'no')
    numpy.testing.assert_allclose(out.array, [0.0, 0.0], atol=1e-6)
    e = numpy.zeros((0, 3), numpy.float32)
    assert float(F.gaussian_kl_divergence(e, e).array) == 0.0
    assert float(F.bernoulli_nll(e, e, 'mean').array) == 0.0
    s = numpy.zeros((), numpy.float32)
    assert F.gaussian_nll(s, s, s, 'no').shape == ()


def test_vae_losses_errors():
    a = numpy.zeros((2, 3), numpy.float32)
    for call in (lambda r: F.gaussian_kl_divergence(a, a, r),
                 lambda r: F.bernoulli_nll(a, a, r),
                 lambda r: F.gaussian_nll(a, a, a, r)):
        with pytest.raises(ValueError, match='reduce'):
            call('max')
    with pytest.raises(InvalidType):
        F.gaussian_kl_divergence(a, a[:1])
    with pytest.raises(InvalidType):
        F.gaussian_kl_divergence(a, a.astype(numpy.float64))
    with pytest.raises(InvalidType):
        F.bernoulli_nll(a.astype(numpy.int32), a)
    with pytest.raises(InvalidType):
        F.gaussian_nll(a, a[:, :2], a)
    with pytest.raises(InvalidType):
        F.gaussian_nll(a.astype(numpy.int32), a, a)


# -- cross_covariance / decov ----------------------------------------------------------

def _cov(y, z):
    yc = y.astype('d') - y.mean(axis=0)
    zc = z.astype('d') - z.mean(axis=0)
    return yc.T @ zc / y.shape[0]


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_cross_covariance(fc, dtype, reduce):
    y = fc.uniform((5, 3), dtype)
    z = fc.uniform((5, 2), dtype)
    c = _cov(y, z)
    ref = 0.5 * (c * c).sum() if reduce == 'half_squared_sum' else c
    f = lambda y, z: F.cross_covariance(y, z, reduce)  # noqa: E731
    fc.check_forward(f, (y, z), numpy.asarray(ref, dtype), dtype)
    fc.check_backward(f, (y, z), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (y, z), dtype)


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_decov(fc, dtype, reduce):
    h = fc.uniform((5, 3), dtype)
    c = _cov(h, h)
    numpy.fill_diagonal(c, 0)
    ref = 0.5 * (c * c).sum() if reduce == 'half_squared_sum' else c
    f = lambda h: F.decov(h, reduce)  # noqa: E731
    fc.check_forward(f, (h,), numpy.asarray(ref, dtype), dtype)
    fc.check_backward(f, (h,), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (h,), dtype)


def test_covariance_edges_and_errors(fc):
    y = fc.uniform((4, 3), numpy.float32)
    z = fc.uniform((4, 2), numpy.float32)
    c = _cov(y, z)
    fc.check_forward(F.cross_covariance, (fc.noncontiguous(y), fc.noncontiguous(z)),
                     numpy.asarray(0.5 * (c * c).sum(), numpy.float32))
    ch = _cov(y, y)
    numpy.fill_diagonal(ch, 0)
    fc.check_forward(F.decov, (fc.noncontiguous(y),),
                     numpy.asarray(0.5 * (ch * ch).sum(), numpy.float32))
    assert F.decov(numpy.zeros((3, 0), numpy.float32), 'no').shape == (0, 0)
    with pytest.raises(ValueError, match='reduce'):
        F.cross_covariance(y, z, reduce='sum')
    with pytest.raises(ValueError, match='reduce'):
        F.decov(y, reduce='mean')
    with pytest.raises(InvalidType):
        F.cross_covariance(y, z[:3])
    with pytest.raises(InvalidType):
        F.cross_covariance(y, z.astype(numpy.float64))
    with pytest.raises(InvalidType):
        F.decov(y[0])
    with pytest.raises(InvalidType):
        F.decov(y.astype(numpy.int32))
