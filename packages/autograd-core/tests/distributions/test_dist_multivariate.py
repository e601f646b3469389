"""Distributions with events of more than one value (MultivariateNormal, Dirichlet,
OneHotCategorical, Independent) and over classes (Categorical)."""

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import gradient_check

stats = pytest.importorskip('scipy.stats')


def _mvn_params(batch, d, dtype=numpy.float64):
    loc = numpy.random.uniform(-1, 1, batch + (d,))
    a = numpy.random.normal(size=batch + (d, d))
    cov = a @ numpy.swapaxes(a, -1, -2) + d * numpy.eye(d)
    return loc.astype(dtype), numpy.linalg.cholesky(cov).astype(dtype), cov


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_multivariate_normal_matches_scipy(dtype):
    loc, tril, cov = _mvn_params((2,), 3, dtype)
    dist = D.MultivariateNormal(chainer.Variable(loc), scale_tril=tril)
    assert dist.batch_shape == (2,) and dist.event_shape == (3,)
    x = numpy.random.normal(size=(4, 2, 3)).astype(dtype)
    lp = dist.log_prob(x)
    assert lp.shape == (4, 2) and lp.dtype == dtype
    tol = {'rtol': 1e-4, 'atol': 1e-5} if dtype == numpy.float32 else {'rtol': 1e-10}
    for i in range(2):
        ref = stats.multivariate_normal(loc[i].astype(numpy.float64), cov[i])
        numpy.testing.assert_allclose(lp.array[:, i], ref.logpdf(x[:, i]), **tol)
        numpy.testing.assert_allclose(dist.entropy.array[i], ref.entropy(), **tol)
    numpy.testing.assert_allclose(dist.covariance.array, cov, **tol)
    numpy.testing.assert_allclose(dist.variance.array, numpy.diagonal(cov, 0, -2, -1), **tol)
    assert dist.mean is dist.loc


def test_multivariate_normal_gradients_and_samples():
    loc, tril, cov = _mvn_params((2,), 3)
    x = numpy.random.normal(size=(2, 3))

    def log_prob(loc, tril):
        return D.MultivariateNormal(loc, scale_tril=tril).log_prob(x)

    gradient_check.check_backward(log_prob, (loc, tril), numpy.random.normal(size=(2,)),
                                  atol=1e-5, rtol=1e-4)

    def sample(loc, tril):
        numpy.random.seed(3)
        return D.MultivariateNormal(loc, scale_tril=tril).sample(2)

    gradient_check.check_backward(sample, (loc, tril), numpy.random.normal(size=(2, 2, 3)),
                                  atol=1e-5, rtol=1e-4)
    s = D.MultivariateNormal(loc, scale_tril=tril).sample(20000).array
    assert s.shape == (20000, 2, 3)
    for i in range(2):
        numpy.testing.assert_allclose(numpy.cov(s[:, i].T), cov[i], rtol=0.1, atol=0.1)
        numpy.testing.assert_allclose(s[:, i].mean(axis=0), loc[i], atol=0.1)


def test_multivariate_normal_arguments():
    loc, tril, _ = _mvn_params((2,), 3)
    with pytest.raises(ValueError, match='scale_tril .* is required'):
        D.MultivariateNormal(loc)
    with pytest.raises(ValueError, match='batch_shape'):
        D.MultivariateNormal(loc, scale_tril=tril[..., :2])
    with pytest.raises(TypeError, match='unexpected'):
        D.MultivariateNormal(loc, scale_tril=tril, cov=tril)
    # A batch shape that broadcasts: one Cholesky factor for every mean.
    d = D.MultivariateNormal(loc, scale_tril=tril[0])
    assert d.batch_shape == (2,) and d.scale_tril.shape == (2, 3, 3)


@pytest.mark.parametrize('lower', [True, False])
@pytest.mark.parametrize('shape', [(3, 3), (2, 3, 3), (0, 0)])
def test_triangular_inv(lower, shape):
    from chainer.distributions.multivariate_normal import _triangular_inv

    x = numpy.random.normal(size=shape) + 3 * numpy.eye(shape[-1])
    x = numpy.tril(x) if lower else numpy.triu(x)
    y = _triangular_inv(x, lower=lower)
    numpy.testing.assert_allclose(y.array, numpy.linalg.inv(x), atol=1e-12)
    gy = numpy.random.normal(size=shape)
    ggx = numpy.random.normal(size=shape)
    if x.size:
        f = lambda x: _triangular_inv(x, lower=lower)  # noqa: E731
        gradient_check.check_backward(f, x, gy, atol=1e-6, rtol=1e-5)
        gradient_check.check_double_backward(f, x, gy, ggx, atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError, match='square'):
        _triangular_inv(numpy.zeros((2, 3)))


def test_dirichlet_matches_scipy_and_is_differentiable():
    alpha = numpy.random.uniform(0.5, 4, (2, 3))
    dist = D.Dirichlet(alpha)
    assert dist.batch_shape == (2,) and dist.event_shape == (3,)
    x = numpy.random.dirichlet([1, 1, 1], size=(4, 2))
    lp = dist.log_prob(x)
    assert lp.shape == (4, 2)
    for i in range(2):
        ref = stats.dirichlet(alpha[i])
        numpy.testing.assert_allclose(lp.array[:, i], [ref.logpdf(v) for v in x[:, i]])
        numpy.testing.assert_allclose(dist.entropy.array[i], ref.entropy())
        numpy.testing.assert_allclose(dist.mean.array[i], ref.mean())
        numpy.testing.assert_allclose(dist.variance.array[i], ref.var())
    gradient_check.check_backward(lambda a: D.Dirichlet(a).log_prob(x), alpha,
                                  numpy.random.normal(size=(4, 2)), atol=1e-5, rtol=1e-4)
    gradient_check.check_backward(lambda a: D.Dirichlet(a).entropy, alpha,
                                  numpy.random.normal(size=(2,)), atol=1e-5, rtol=1e-4)
    s = dist.sample(20000).array
    numpy.testing.assert_allclose(s.sum(axis=-1), 1)
    numpy.testing.assert_allclose(s.mean(axis=0), dist.mean.array, atol=0.01)
    outside = numpy.array([[0.5, 0.6, -0.1], [0.2, 0.3, 0.5]])
    assert list(dist.log_prob(outside).array == -numpy.inf) == [True, False]


@pytest.mark.parametrize('use_logit', [False, True])
def test_categorical(use_logit):
    logit = numpy.random.normal(size=(2, 3, 4))
    p = numpy.exp(logit) / numpy.exp(logit).sum(axis=-1, keepdims=True)
    dist = D.Categorical(logit=logit) if use_logit else D.Categorical(p)
    assert dist.batch_shape == (2, 3) and dist.event_shape == ()
    x = numpy.random.randint(0, 4, (5, 2, 3))
    lp = dist.log_prob(x)
    expected = numpy.log(numpy.take_along_axis(
        numpy.broadcast_to(p, (5, 2, 3, 4)), x[..., None], -1))[..., 0]
    numpy.testing.assert_allclose(lp.array, expected)
    numpy.testing.assert_allclose(dist.entropy.array, -(p * numpy.log(p)).sum(-1))
    key = 'logit' if use_logit else 'p'
    value = logit if use_logit else p

    def log_prob(v):
        return D.Categorical(**{key: v}).log_prob(x)

    gradient_check.check_backward(log_prob, value, numpy.random.normal(size=(5, 2, 3)),
                                  atol=1e-5, rtol=1e-4)
    s = dist.sample(20000).array
    assert s.dtype == numpy.int64 and s.shape == (20000, 2, 3)  # as Chainer v7
    freq = (s[..., None] == numpy.arange(4)).mean(axis=0)
    numpy.testing.assert_allclose(freq, p, atol=0.015)
    with pytest.raises(TypeError, match='integer class indices'):
        dist.log_prob(x.astype(numpy.float32))


def test_categorical_zero_probability_has_finite_entropy():
    dist = D.Categorical(numpy.array([[0.0, 0.5, 0.5], [0.0, 0.0, 1.0]], numpy.float32))
    numpy.testing.assert_allclose(dist.entropy.array, [numpy.log(2), 0], atol=1e-7)
    assert (dist.sample(1000).array[:, 1] == 2).all()


def test_one_hot_categorical():
    p = numpy.random.dirichlet([1, 1, 1], size=(2,))
    dist = D.OneHotCategorical(p)
    assert dist.batch_shape == (2,) and dist.event_shape == (3,)
    x = numpy.eye(3)[numpy.random.randint(0, 3, (5, 2))]
    numpy.testing.assert_allclose(dist.log_prob(x).array, numpy.log((x * p).sum(-1)))
    numpy.testing.assert_allclose(dist.mean.array, p)
    numpy.testing.assert_allclose(dist.variance.array, p * (1 - p))
    s = dist.sample(20000).array
    assert s.shape == (20000, 2, 3) and (s.sum(-1) == 1).all()
    numpy.testing.assert_allclose(s.mean(axis=0), p, atol=0.015)
    # A class of probability 0 does not make the others' log-probabilities NaN.
    zero = D.OneHotCategorical(numpy.array([0.0, 1.0]))
    with numpy.errstate(invalid='ignore'):
        assert zero.log_prob(numpy.array([0.0, 1.0])).array == 0


@pytest.mark.parametrize('ndims,batch,event', [
    (None, (4,), (5,)), (0, (4, 5), ()), (1, (4,), (5,)), (2, (), (4, 5))])
def test_independent(ndims, batch, event):
    loc = numpy.random.normal(size=(4, 5))
    scale = numpy.random.uniform(0.5, 2, (4, 5))
    dist = D.Independent(D.Normal(loc, scale), ndims)
    assert dist.batch_shape == batch and dist.event_shape == event
    x = numpy.random.normal(size=(3, 4, 5))
    expected = stats.norm(loc, scale).logpdf(x).reshape((3,) + batch + (-1,)).sum(-1)
    numpy.testing.assert_allclose(dist.log_prob(x).array, expected)
    ent = stats.norm(loc, scale).entropy().reshape(batch + (-1,)).sum(-1)
    numpy.testing.assert_allclose(dist.entropy.array, ent)
    assert dist.sample(2).shape == (2, 4, 5)
    d = int(numpy.prod(event))
    cov = dist.covariance.array
    assert cov.shape == batch + (d, d)
    numpy.testing.assert_allclose(
        cov, (scale ** 2).reshape(batch + (d,))[..., None] * numpy.eye(d))
    assert dist.support == 'real'


def test_independent_of_multivariate_normal_covariance_is_block_diagonal():
    loc, tril, cov = _mvn_params((2,), 3)
    dist = D.Independent(D.MultivariateNormal(loc, scale_tril=tril), 1)
    assert dist.batch_shape == () and dist.event_shape == (2, 3)
    full = dist.covariance.array
    numpy.testing.assert_allclose(full[:3, :3], cov[0])
    numpy.testing.assert_allclose(full[3:, 3:], cov[1])
    assert (full[:3, 3:] == 0).all()


def test_independent_rejects_too_many_axes():
    with pytest.raises(ValueError, match=r'reinterpreted_batch_ndims must be in \[0, 2\]'):
        D.Independent(D.Normal(numpy.zeros((2, 3)), numpy.ones((2, 3))), 3)
