"""Scalar distributions of chainer.distributions against SciPy: functions of points,
moments, entropies, parameter gradients and sample statistics."""

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import gradient_check

stats = pytest.importorskip('scipy.stats')

SHAPE = (2, 3)


def _u(lo, hi):
    return numpy.random.uniform(lo, hi, SHAPE)


# name -> (constructor from params, params, scipy frozen distribution of params,
#          points inside the support, functions of points to check, properties to check)
CASES = {
    'normal': (
        lambda p: D.Normal(p['loc'], p['scale']),
        lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
        lambda p: stats.norm(p['loc'], p['scale']),
        lambda: numpy.random.normal(size=SHAPE),
        ('log_prob', 'prob', 'cdf', 'log_cdf', 'survival_function',
         'log_survival_function', 'icdf'),
        ('mean', 'variance', 'stddev', 'entropy')),
    'normal_log_scale': (
        lambda p: D.Normal(p['loc'], log_scale=p['log_scale']),
        lambda: {'loc': _u(-1, 1), 'log_scale': _u(-1, 1)},
        lambda p: stats.norm(p['loc'], numpy.exp(p['log_scale'])),
        lambda: numpy.random.normal(size=SHAPE),
        ('log_prob', 'cdf', 'icdf'),
        ('mean', 'variance', 'entropy')),
    'beta': (
        lambda p: D.Beta(p['a'], p['b']),
        lambda: {'a': _u(0.5, 5), 'b': _u(0.5, 5)},
        lambda p: stats.beta(p['a'], p['b']),
        lambda: _u(0.05, 0.95),
        ('log_prob',),
        ('mean', 'variance', 'entropy')),
    'cauchy': (
        lambda p: D.Cauchy(p['loc'], p['scale']),
        lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
        lambda p: stats.cauchy(p['loc'], p['scale']),
        lambda: numpy.random.normal(size=SHAPE),
        ('log_prob', 'cdf', 'icdf'),
        ('entropy',)),
    'chisquare': (
        lambda p: D.Chisquare(p['k']),
        lambda: {'k': _u(1, 6)},
        lambda p: stats.chi2(p['k']),
        lambda: _u(0.1, 5),
        ('log_prob',),
        ('mean', 'variance', 'entropy')),
    'exponential': (
        lambda p: D.Exponential(p['lam']),
        lambda: {'lam': _u(0.5, 2)},
        lambda p: stats.expon(scale=1 / p['lam']),
        lambda: _u(0.1, 3),
        ('log_prob', 'cdf', 'survival_function', 'icdf'),
        ('mean', 'variance', 'stddev', 'entropy')),
    'gamma': (
        lambda p: D.Gamma(p['k'], p['theta']),
        lambda: {'k': _u(0.5, 5), 'theta': _u(0.5, 2)},
        lambda p: stats.gamma(p['k'], scale=p['theta']),
        lambda: _u(0.1, 5),
        ('log_prob',),
        ('mean', 'variance', 'entropy')),
    'geometric': (
        lambda p: D.Geometric(p['p']),
        lambda: {'p': _u(0.2, 0.9)},
        lambda p: stats.geom(p['p']),
        lambda: numpy.random.randint(1, 6, SHAPE),
        ('log_prob',),
        ('mean', 'variance', 'entropy')),
    'gumbel': (
        lambda p: D.Gumbel(p['loc'], p['scale']),
        lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
        lambda p: stats.gumbel_r(p['loc'], p['scale']),
        lambda: numpy.random.normal(size=SHAPE),
        ('log_prob', 'cdf', 'log_cdf', 'icdf'),
        ('mean', 'variance', 'entropy')),
    'laplace': (
        lambda p: D.Laplace(p['loc'], p['scale']),
        lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
        lambda p: stats.laplace(p['loc'], p['scale']),
        lambda: numpy.random.normal(size=SHAPE),
        ('log_prob', 'cdf', 'icdf'),
        ('mean', 'variance', 'stddev', 'entropy')),
    'log_normal': (
        lambda p: D.LogNormal(p['mu'], p['sigma']),
        lambda: {'mu': _u(-1, 1), 'sigma': _u(0.3, 1)},
        lambda p: stats.lognorm(p['sigma'], scale=numpy.exp(p['mu'])),
        lambda: _u(0.1, 5),
        ('log_prob', 'cdf', 'icdf'),
        ('mean', 'variance', 'entropy')),
    'pareto': (
        lambda p: D.Pareto(p['scale'], p['alpha']),
        lambda: {'scale': _u(0.5, 1), 'alpha': _u(5, 8)},
        lambda p: stats.pareto(p['alpha'], scale=p['scale']),
        lambda: _u(1.1, 4),
        ('log_prob', 'cdf', 'icdf'),
        ('mean', 'variance', 'entropy')),
    'poisson': (
        lambda p: D.Poisson(p['lam']),
        lambda: {'lam': _u(0.5, 8)},
        lambda p: stats.poisson(p['lam']),
        lambda: numpy.random.randint(0, 10, SHAPE),
        ('log_prob',),
        ('mean', 'variance')),
    'uniform': (
        lambda p: D.Uniform(low=p['low'], high=p['high']),
        lambda: {'low': _u(-2, 0), 'high': _u(0.5, 2)},
        lambda p: stats.uniform(p['low'], p['high'] - p['low']),
        lambda: _u(-0.5, 0.5),
        ('log_prob', 'cdf', 'icdf'),
        ('mean', 'variance', 'stddev', 'entropy')),
    'uniform_loc_scale': (
        lambda p: D.Uniform(loc=p['loc'], scale=p['scale']),
        lambda: {'loc': _u(-2, 0), 'scale': _u(2.5, 4)},
        lambda p: stats.uniform(p['loc'], p['scale']),
        lambda: _u(0, 0.5),
        ('log_prob', 'cdf'),
        ('mean', 'variance', 'entropy')),
    'bernoulli': (
        lambda p: D.Bernoulli(p['p']),
        lambda: {'p': _u(0.1, 0.9)},
        lambda p: stats.bernoulli(p['p']),
        lambda: numpy.random.randint(0, 2, SHAPE),
        ('log_prob', 'prob'),
        ('mean', 'variance', 'stddev', 'entropy')),
}
DISCRETE = {'geometric', 'poisson', 'bernoulli'}
SCIPY_NAMES = {'cdf': 'cdf', 'log_cdf': 'logcdf', 'survival_function': 'sf',
               'log_survival_function': 'logsf', 'icdf': 'ppf', 'variance': 'var',
               'stddev': 'std', 'mean': 'mean', 'entropy': 'entropy'}
TOL = {numpy.float32: {'atol': 1e-5, 'rtol': 1e-4}, numpy.float64: {'atol': 1e-10, 'rtol': 1e-8}}


def _make(name, dtype, variable=False):
    make, params, scipy_of, points, funcs, props = CASES[name]
    p = {k: v.astype(dtype) for k, v in params().items()}
    given = {k: chainer.Variable(v) for k, v in p.items()} if variable else p
    return make(given), scipy_of({k: v.astype(numpy.float64) for k, v in p.items()}), p


def _scipy_name(name, method):
    if method == 'log_prob':
        return 'logpmf' if name in DISCRETE else 'logpdf'
    if method == 'prob':
        return 'pmf' if name in DISCRETE else 'pdf'
    return SCIPY_NAMES[method]


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_values_match_scipy(name, dtype):
    dist, ref, _ = _make(name, dtype, variable=dtype == numpy.float32)
    funcs, props = CASES[name][4], CASES[name][5]
    assert dist.batch_shape == SHAPE and dist.event_shape == ()
    for method in funcs:
        x = _u(0.01, 0.99) if method == 'icdf' else CASES[name][3]()
        actual = getattr(dist, method)(x.astype(dtype) if x.dtype.kind == 'f' else x)
        assert isinstance(actual, chainer.Variable) and actual.dtype == dtype, method
        expected = getattr(ref, _scipy_name(name, method))(x)
        numpy.testing.assert_allclose(actual.array, expected, err_msg=method, **TOL[dtype])
    for prop in props:
        actual = getattr(dist, prop)
        assert actual.dtype == dtype and actual.shape == SHAPE, prop
        expected = getattr(ref, SCIPY_NAMES[prop])()
        numpy.testing.assert_allclose(actual.array, expected, err_msg=prop, **TOL[dtype])


@pytest.mark.parametrize('name', sorted(CASES))
def test_log_prob_and_entropy_gradients(name):
    make, params, _, points, _, props = CASES[name]
    p = params()
    names = sorted(p)
    x = points()
    x = x.astype(numpy.float64) if x.dtype.kind == 'f' else x

    def log_prob(*values):
        return make(dict(zip(names, values))).log_prob(x)

    gy = numpy.random.normal(size=SHAPE)
    gradient_check.check_backward(log_prob, tuple(p[n] for n in names), gy,
                                  atol=1e-5, rtol=1e-4)
    for prop in ('entropy', 'mean', 'variance'):
        if prop in props and name != 'uniform_loc_scale':
            def fn(*values, prop=prop):
                return getattr(make(dict(zip(names, values))), prop)
            gradient_check.check_backward(fn, tuple(p[n] for n in names), gy,
                                          atol=1e-5, rtol=1e-4)


REPARAMETERIZED = ['normal', 'normal_log_scale', 'cauchy', 'exponential', 'gumbel', 'laplace',
                   'log_normal', 'pareto', 'uniform', 'uniform_loc_scale']


@pytest.mark.parametrize('name', REPARAMETERIZED)
def test_reparameterized_samples_are_differentiable(name):
    make, params, *_ = CASES[name]
    p = params()
    names = sorted(p)

    def sample(*values):
        numpy.random.seed(7)  # the same noise at every evaluation
        return make(dict(zip(names, values))).sample((4,))

    gy = numpy.random.normal(size=(4,) + SHAPE)
    gradient_check.check_backward(sample, tuple(p[n] for n in names), gy,
                                  atol=1e-5, rtol=1e-4)


NOT_REPARAMETERIZED = ['beta', 'chisquare', 'gamma', 'geometric', 'poisson', 'bernoulli']


@pytest.mark.parametrize('name', NOT_REPARAMETERIZED)
def test_other_samples_have_no_graph(name):
    dist, _, p = _make(name, numpy.float32, variable=True)
    s = dist.sample(5)
    assert s.shape == (5,) + SHAPE and s.creator is None


@pytest.mark.parametrize('name', sorted(set(CASES) - {'cauchy'}))
def test_sample_moments(name):
    dist, ref, _ = _make(name, numpy.float64)
    n = 20000
    s = dist.sample(n).array
    assert s.shape == (n,) + SHAPE
    mean, var = ref.mean(), ref.var()
    # The sample mean within 5 standard errors, the variance within 10 %.
    assert (numpy.abs(s.mean(axis=0) - mean) <= 5 * numpy.sqrt(var / n)).all()
    numpy.testing.assert_allclose(s.var(axis=0), var, rtol=0.1)
    lo, hi = ref.support()
    assert ((s >= lo) & (s <= hi)).all()


def test_cauchy_sample_median_and_undefined_moments():
    dist, ref, _ = _make('cauchy', numpy.float64)
    s = dist.sample(20000).array
    numpy.testing.assert_allclose(numpy.median(s, axis=0), ref.median(), atol=0.1)
    with pytest.warns(RuntimeWarning, match='no mean'):
        assert numpy.isnan(dist.mean.array).all()
    with pytest.warns(RuntimeWarning, match='no variance'):
        assert numpy.isnan(dist.variance.array).all()


@pytest.mark.parametrize('name,x', [
    ('beta', [-0.5, 1.5]), ('chisquare', [-1.0]), ('exponential', [-1.0]),
    ('gamma', [-1.0]), ('log_normal', [-1.0, 0.0]), ('pareto', [0.1]),
    ('poisson', [-1.0]), ('geometric', [0.0]), ('uniform', [-3.0, 3.0]),
])
def test_log_prob_outside_the_support_is_minus_inf(name, x):
    dist, _, _ = _make(name, numpy.float32, variable=True)
    points = numpy.broadcast_to(numpy.asarray(x, numpy.float32)[:, None, None],
                                (len(x),) + SHAPE)
    with numpy.errstate(all='raise'):
        lp = dist.log_prob(points)
    assert (lp.array == -numpy.inf).all()
    lp.grad = numpy.ones_like(lp.array)
    lp.backward()
    for v in dist.params.values():
        if v.grad is not None:
            assert numpy.isfinite(v.grad).all()


def test_cdf_outside_the_support():
    dist, _, _ = _make('exponential', numpy.float32)
    assert (dist.cdf(-numpy.ones(SHAPE, numpy.float32)).array == 0).all()
    assert (dist.survival_function(-numpy.ones(SHAPE, numpy.float32)).array == 1).all()
    dist, _, _ = _make('uniform', numpy.float32)
    assert (dist.cdf(numpy.full(SHAPE, 5, numpy.float32)).array == 1).all()
    dist, _, _ = _make('pareto', numpy.float32)
    assert (dist.cdf(numpy.full(SHAPE, 0.1, numpy.float32)).array == 0).all()


def test_pareto_infinite_moments():
    dist = D.Pareto(numpy.ones(3, numpy.float32), numpy.array([0.5, 1.5, 2.5], numpy.float32))
    ref = stats.pareto(numpy.array([0.5, 1.5, 2.5]))
    numpy.testing.assert_allclose(dist.mean.array, ref.mean(), rtol=1e-6)
    numpy.testing.assert_allclose(dist.variance.array, ref.var(), rtol=1e-6)


def test_laplace_private_cdf_icdf_roundtrip():
    from chainer.distributions import laplace

    u = numpy.random.uniform(0.02, 0.98, (5,))
    numpy.testing.assert_allclose(laplace._laplace_cdf(laplace._laplace_icdf(u)).array, u)
    gradient_check.check_backward(laplace._laplace_cdf, numpy.random.normal(size=5),
                                  numpy.random.normal(size=5))
    gradient_check.check_backward(laplace._laplace_icdf, u, numpy.random.normal(size=5))


def test_parameters_broadcast_and_numbers_take_the_dtype():
    d = D.Normal(numpy.zeros((2, 3), numpy.float32), 2.0)
    assert d.batch_shape == (2, 3) and d.scale.dtype == numpy.float32
    d = D.Gamma(numpy.float32(2), numpy.ones(4, numpy.float32))
    assert d.batch_shape == (4,) and d.k.dtype == numpy.float32
    with pytest.raises(ValueError, match='do not broadcast'):
        D.Laplace(numpy.zeros(2, numpy.float32), numpy.ones(3, numpy.float32))
    with pytest.raises(TypeError, match='scale must be'):
        D.Cauchy(numpy.zeros(2, numpy.float32), 'wide')
    with pytest.raises(TypeError, match=r'one dtype \(loc: float32, scale: float64\)'):
        D.Normal(numpy.zeros(2, numpy.float32), numpy.ones(2))
    d = D.Exponential([1, 2])
    assert d.lam.dtype == numpy.float32 and d.batch_shape == (2,)


def test_normal_arguments():
    with pytest.raises(ValueError, match='either scale or log_scale'):
        D.Normal(numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match='either scale or log_scale'):
        D.Normal(0.0, 1.0, log_scale=0.0)
    with pytest.raises(TypeError, match='unexpected'):
        D.Normal(0.0, 1.0, sigma=1.0)
    d = D.Normal(numpy.zeros(2, numpy.float32), log_scale=numpy.zeros(2, numpy.float32))
    assert d.params.keys() == {'loc', 'scale'}


def test_uniform_arguments():
    with pytest.raises(ValueError, match='low and high, or loc and scale'):
        D.Uniform(low=0.0, scale=1.0)
    with pytest.raises(TypeError, match='unexpected'):
        D.Uniform(low=0.0, width=1.0)
