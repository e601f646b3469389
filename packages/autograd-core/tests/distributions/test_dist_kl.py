"""Every registered KL divergence against numerical integration (or sums, or Monte Carlo
for the multivariate ones); gradients; the registry and cross_entropy."""

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import gradient_check

stats = pytest.importorskip('scipy.stats')
integrate = pytest.importorskip('scipy.integrate')

N = 3  # the batch size of each pair


def _u(lo, hi):
    return numpy.random.uniform(lo, hi, N)


# name -> (params, constructor, scipy frozen distribution)
CONTINUOUS = {
    'normal': (lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
               lambda p: D.Normal(p['loc'], p['scale']),
               lambda p: stats.norm(p['loc'], p['scale'])),
    'log_normal': (lambda: {'mu': _u(-1, 1), 'sigma': _u(0.5, 1.5)},
                   lambda p: D.LogNormal(p['mu'], p['sigma']),
                   lambda p: stats.lognorm(p['sigma'], scale=numpy.exp(p['mu']))),
    'exponential': (lambda: {'lam': _u(0.5, 2)},
                    lambda p: D.Exponential(p['lam']),
                    lambda p: stats.expon(scale=1 / p['lam'])),
    'gamma': (lambda: {'k': _u(1, 4), 'theta': _u(0.5, 2)},
              lambda p: D.Gamma(p['k'], p['theta']),
              lambda p: stats.gamma(p['k'], scale=p['theta'])),
    'beta': (lambda: {'a': _u(1, 5), 'b': _u(1, 5)},
             lambda p: D.Beta(p['a'], p['b']),
             lambda p: stats.beta(p['a'], p['b'])),
    'gumbel': (lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
               lambda p: D.Gumbel(p['loc'], p['scale']),
               lambda p: stats.gumbel_r(p['loc'], p['scale'])),
    'laplace': (lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
                lambda p: D.Laplace(p['loc'], p['scale']),
                lambda p: stats.laplace(p['loc'], p['scale'])),
    'pareto': (lambda: {'scale': _u(0.5, 1), 'alpha': _u(1, 4)},
               lambda p: D.Pareto(p['scale'], p['alpha']),
               lambda p: stats.pareto(p['alpha'], scale=p['scale'])),
    'uniform': (lambda: {'low': _u(-2, -1), 'high': _u(1, 2)},
                lambda p: D.Uniform(low=p['low'], high=p['high']),
                lambda p: stats.uniform(p['low'], p['high'] - p['low'])),
}


def _integrated_kl(ref1, ref2):
    """KL of two frozen scalar distributions, integrated over the quantiles of ref1:
    the mean of log(p1 / p2) at F1^-1(u), u uniform, with u = sigmoid(s) and Simpson's
    rule on a fine grid of s (vectorized, and accurate in the tails)."""
    s = numpy.linspace(-30, 30, 20001)
    u = 1 / (1 + numpy.exp(-s))
    x = numpy.where(s < 0, ref1.ppf(u), ref1.isf(1 / (1 + numpy.exp(s))))
    g = (ref1.logpdf(x) - ref2.logpdf(x)) * u * (1 - u)
    return integrate.simpson(g, x=s)


def _frozen(scipy_of, p, i):
    return scipy_of({k: v[i] for k, v in p.items()})


@pytest.mark.parametrize('name', sorted(CONTINUOUS))
def test_continuous_kl_matches_quadrature(name):
    params, make, scipy_of = CONTINUOUS[name]
    p1, p2 = params(), params()
    if name == 'pareto':  # the support of dist1 inside that of dist2
        p2['scale'] = p1['scale'] * 0.8
    if name == 'uniform':
        p2['low'], p2['high'] = p1['low'] - 0.5, p1['high'] + 0.5
    kl = chainer.kl_divergence(make(p1), make(p2))
    assert kl.shape == (N,)
    for i in range(N):
        ref1, ref2 = _frozen(scipy_of, p1, i), _frozen(scipy_of, p2, i)
        numpy.testing.assert_allclose(kl.array[i], _integrated_kl(ref1, ref2),
                                      rtol=1e-5, atol=1e-8)
    ce = chainer.cross_entropy(make(p1), make(p2))
    numpy.testing.assert_allclose(ce.array, make(p1).entropy.array + kl.array)


def test_kl_is_infinite_where_the_support_is_not_covered():
    u1 = D.Uniform(low=numpy.array([0.0, 0.0]), high=numpy.array([1.0, 1.0]))
    u2 = D.Uniform(low=numpy.array([-1.0, 0.5]), high=numpy.array([2.0, 2.0]))
    assert numpy.isfinite(chainer.kl_divergence(u1, u2).array[0])
    assert chainer.kl_divergence(u1, u2).array[1] == numpy.inf
    p1 = D.Pareto(numpy.array([1.0, 1.0]), numpy.array([2.0, 2.0]))
    p2 = D.Pareto(numpy.array([0.5, 2.0]), numpy.array([2.0, 2.0]))
    kl = chainer.kl_divergence(p1, p2).array
    assert numpy.isfinite(kl[0]) and kl[1] == numpy.inf


def _discrete_kl(ref1, ref2, support):
    log1, log2 = ref1.logpmf(support), ref2.logpmf(support)
    return (numpy.exp(log1) * (log1 - log2)).sum()


def test_discrete_kls_match_sums():
    k = numpy.arange(0, 400)
    p1, p2 = _u(0.1, 0.9), _u(0.1, 0.9)
    kl = chainer.kl_divergence(D.Bernoulli(p1), D.Bernoulli(p2)).array
    kl_geo = chainer.kl_divergence(D.Geometric(p1), D.Geometric(p2)).array
    lam1, lam2 = _u(1, 8), _u(1, 8)
    kl_poi = chainer.kl_divergence(D.Poisson(lam1), D.Poisson(lam2)).array
    for i in range(N):
        numpy.testing.assert_allclose(kl[i], _discrete_kl(
            stats.bernoulli(p1[i]), stats.bernoulli(p2[i]), k[:2]))
        numpy.testing.assert_allclose(kl_geo[i], _discrete_kl(
            stats.geom(p1[i]), stats.geom(p2[i]), k[1:]), rtol=1e-6)
        numpy.testing.assert_allclose(kl_poi[i], _discrete_kl(
            stats.poisson(lam1[i]), stats.poisson(lam2[i]), k), rtol=1e-6)
    q1 = numpy.random.dirichlet([1, 1, 1, 1], size=N)
    q2 = numpy.random.dirichlet([1, 1, 1, 1], size=N)
    expected = (q1 * numpy.log(q1 / q2)).sum(-1)
    numpy.testing.assert_allclose(
        chainer.kl_divergence(D.Categorical(q1), D.Categorical(q2)).array, expected)
    numpy.testing.assert_allclose(chainer.kl_divergence(
        D.OneHotCategorical(q1), D.OneHotCategorical(q2)).array, expected)
    logit = numpy.log(q2)
    numpy.testing.assert_allclose(chainer.kl_divergence(
        D.Categorical(q1), D.Categorical(logit=logit)).array, expected)


def _monte_carlo_kl(dist1, dist2, n=50000):
    numpy.random.seed(5)
    x = dist1.sample(n)
    values = (dist1.log_prob(x) - dist2.log_prob(x)).array
    return values.mean(axis=0), values.std(axis=0) / numpy.sqrt(n)


def test_multivariate_normal_and_dirichlet_kls_match_monte_carlo():
    def mvn():
        a = numpy.random.normal(size=(N, 3, 3))
        cov = a @ numpy.swapaxes(a, -1, -2) + numpy.eye(3)
        return D.MultivariateNormal(numpy.random.normal(size=(N, 3)),
                                    scale_tril=numpy.linalg.cholesky(cov))

    for make in (mvn, lambda: D.Dirichlet(numpy.random.uniform(0.5, 5, (N, 3)))):
        dist1, dist2 = make(), make()
        kl = chainer.kl_divergence(dist1, dist2).array
        estimate, error = _monte_carlo_kl(dist1, dist2)
        assert (numpy.abs(kl - estimate) <= 5 * error + 1e-3).all()


def test_independent_kl_sums_the_inner_kls():
    loc1, loc2 = numpy.random.normal(size=(2, 4, 5))
    s1, s2 = numpy.random.uniform(0.5, 2, (2, 4, 5))
    inner = chainer.kl_divergence(D.Normal(loc1, s1), D.Normal(loc2, s2)).array
    kl = chainer.kl_divergence(D.Independent(D.Normal(loc1, s1), 1),
                               D.Independent(D.Normal(loc2, s2), 1))
    numpy.testing.assert_allclose(kl.array, inner.sum(-1))
    with pytest.raises(ValueError, match='different event shapes'):
        chainer.kl_divergence(D.Independent(D.Normal(loc1, s1), 1),
                              D.Independent(D.Normal(loc2, s2), 2))


@pytest.mark.parametrize('name', ['normal', 'gamma', 'beta', 'gumbel', 'laplace', 'pareto'])
def test_kl_gradients(name):
    params, make, _ = CONTINUOUS[name]
    p1, p2 = params(), params()
    if name == 'pareto':
        p2['scale'] = p1['scale'] * 0.8
    names = sorted(p1)

    def kl(*values):
        q1 = dict(zip(names, values[:len(names)]))
        q2 = dict(zip(names, values[len(names):]))
        return chainer.kl_divergence(make(q1), make(q2))

    values = tuple(p1[n] for n in names) + tuple(p2[n] for n in names)
    gradient_check.check_backward(kl, values, numpy.random.normal(size=N),
                                  atol=1e-5, rtol=1e-4)


def test_multivariate_normal_kl_gradient():
    a = numpy.random.normal(size=(2, 2, 2, 2))
    tril = numpy.linalg.cholesky(a @ numpy.swapaxes(a, -1, -2) + numpy.eye(2))
    loc = numpy.random.normal(size=(2, 2, 2))

    def kl(l1, t1, l2, t2):
        return chainer.kl_divergence(D.MultivariateNormal(l1, scale_tril=t1),
                                     D.MultivariateNormal(l2, scale_tril=t2))

    gradient_check.check_backward(kl, (loc[0], tril[0], loc[1], tril[1]),
                                  numpy.random.normal(size=2), atol=1e-5, rtol=1e-4)
