"""chainer.Distribution's interface and defaults, the KL registry, the top-level names,
debug-mode validation of parameters, Bernoulli at extreme probabilities and the helper
functions of chainer.distributions.utils."""

import sys
import warnings

import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import gradient_check
from chainer.distributions import bernoulli, utils


def test_top_level_names():
    assert chainer.Distribution is chainer.distribution.Distribution
    assert chainer.kl_divergence is chainer.distribution.kl_divergence
    assert chainer.register_kl is chainer.distribution.register_kl
    assert chainer.cross_entropy is chainer.distribution.cross_entropy
    assert chainer.distributions.Normal is D.normal.Normal
    assert chainer.testing.distribution_unittest is (
        chainer.testing.distribution_test.distribution_unittest)
    for name in D.__all__:
        assert issubclass(getattr(D, name), chainer.Distribution)


def test_distributions_are_imported_on_first_use(monkeypatch):
    for name in list(sys.modules):
        if name == 'chainer.distributions' or name.startswith('chainer.distributions.'):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.delattr(chainer, 'distributions')
    module = chainer.distributions  # resolved by the module __getattr__ of chainer
    assert sys.modules['chainer.distributions'] is module
    assert issubclass(module.Normal, chainer.Distribution)


class _Coin(chainer.Distribution):
    """A minimal distribution: only batch_shape, params, log_cdf and sample_n."""

    def __init__(self, p):
        self.p = chainer.Variable(numpy.asarray(p, numpy.float64))

    @property
    def batch_shape(self):
        return self.p.shape

    @property
    def params(self):
        return {'p': self.p}

    def log_cdf(self, x):
        return chainer.functions.log(self.p) * 0 + numpy.log(numpy.clip(x, 1e-300, 1))

    def sample_n(self, n):
        return chainer.Variable(numpy.zeros((n,) + self.batch_shape))


def test_defaults_of_the_interface():
    d = _Coin([0.5, 0.25])
    assert d.event_shape == () and d.xp is numpy
    assert repr(d) == '_Coin(batch_shape=(2,), event_shape=())'
    x = numpy.array([0.5, 0.25])
    numpy.testing.assert_allclose(d.cdf(x).array, x)
    numpy.testing.assert_allclose(d.survival_function(x).array, 1 - x)
    numpy.testing.assert_allclose(d.log_survival_function(x).array, numpy.log1p(-x))
    assert d.sample().shape == (2,)
    assert d.sample(3).shape == (3, 2)
    assert d.sample((4, 5)).shape == (4, 5, 2)
    for name in ('entropy', 'mean', 'mode', 'variance', 'covariance', 'support', 'stddev'):
        with pytest.raises(NotImplementedError, match='_Coin does not provide'):
            getattr(d, name)
    with pytest.raises(NotImplementedError, match='log_prob'):
        d.prob(x)
    with pytest.raises(NotImplementedError, match='icdf'):
        d.icdf(x)
    base = chainer.Distribution()
    with pytest.raises(NotImplementedError, match='cdf'):
        base.cdf(x)
    with pytest.raises(NotImplementedError, match='log_cdf'):
        base.log_cdf(x)
    with pytest.raises(NotImplementedError, match='sample_n'):
        base.sample(2)


def test_perplexity_and_prob():
    d = D.Normal(numpy.zeros(3), numpy.ones(3))
    x = numpy.array([-1.0, 0.0, 2.0])
    numpy.testing.assert_allclose(d.prob(x).array, numpy.exp(d.log_prob(x).array))
    numpy.testing.assert_allclose(d.perplexity(x).array, numpy.exp(-d.log_prob(x).array))


def test_kl_registry_resolution():
    class MyNormal(D.Normal):
        pass

    class Special(MyNormal):
        pass

    n = D.Normal(0.0, 1.0)
    m = MyNormal(1.0, 2.0)
    s = Special(1.0, 2.0)
    # A subclass uses the pair of its closest registered bases.
    numpy.testing.assert_allclose(chainer.kl_divergence(m, n).array,
                                  chainer.kl_divergence(D.Normal(1.0, 2.0), n).array)

    @chainer.register_kl(MyNormal, D.Normal)
    def _kl(d1, d2):
        return d1.loc * 0 + 42

    try:
        assert chainer.kl_divergence(s, n).array == 42
        assert chainer.kl_divergence(n, m).array != 42
    finally:
        del chainer.distribution._KL_REGISTRY[MyNormal, D.Normal]
    with pytest.raises(NotImplementedError, match='Normal and Gamma'):
        chainer.kl_divergence(n, D.Gamma(1.0, 1.0))
    with pytest.raises(NotImplementedError, match='Normal and Gamma'):
        chainer.cross_entropy(n, D.Gamma(1.0, 1.0))
    with pytest.raises(TypeError, match='Dist2 must be a subclass'):
        chainer.register_kl(D.Normal, int)


BAD_PARAMETERS = [
    (lambda: D.Normal(0.0, numpy.array([1.0, -1.0])), r'Normal: scale must be positive, but '
                                                       r'scale\[1\] = -1.0'),
    (lambda: D.Bernoulli(numpy.array([0.5, 1.5])), r'Bernoulli: p must be in \[0, 1\]'),
    (lambda: D.Beta(numpy.array([1.0]), numpy.array([0.0])), 'Beta: b must be positive'),
    (lambda: D.Categorical(numpy.array([0.5, 0.6])), 'Categorical: p must sum to 1'),
    (lambda: D.Categorical(numpy.array([1.5, -0.5])), r'Categorical: p must be in \[0, 1\]'),
    (lambda: D.OneHotCategorical(numpy.array([0.5, 0.6])), 'OneHotCategorical: p must sum'),
    (lambda: D.Cauchy(0.0, -1.0), 'Cauchy: scale must be positive, but scale = -1.0'),
    (lambda: D.Chisquare(-1.0), 'Chisquare: k must be positive'),
    (lambda: D.Dirichlet(numpy.array([1.0, 0.0])), 'Dirichlet: alpha must be positive'),
    (lambda: D.Exponential(0.0), 'Exponential: lam must be positive'),
    (lambda: D.Gamma(1.0, -2.0), 'Gamma: theta must be positive'),
    (lambda: D.Geometric(0.0), r'Geometric: p must be in \(0, 1\]'),
    (lambda: D.Gumbel(0.0, numpy.nan), 'Gumbel: scale must be positive, but scale = nan'),
    (lambda: D.Laplace(0.0, -1.0), 'Laplace: scale must be positive'),
    (lambda: D.LogNormal(0.0, -1.0), 'LogNormal: sigma must be positive'),
    (lambda: D.MultivariateNormal(numpy.zeros(2), scale_tril=-numpy.eye(2)),
     'MultivariateNormal: scale_tril_diagonal must be positive'),
    (lambda: D.Pareto(1.0, -1.0), 'Pareto: alpha must be positive'),
    (lambda: D.Poisson(-1.0), 'Poisson: lam must be positive'),
    (lambda: D.Uniform(low=1.0, high=0.0), 'Uniform: high - low must be positive'),
    (lambda: D.Uniform(loc=1.0, scale=0.0), 'Uniform: scale must be positive'),
]


@pytest.mark.parametrize('make,message', BAD_PARAMETERS)
def test_debug_mode_rejects_bad_parameters(make, message):
    with chainer.using_config('debug', True), pytest.raises(ValueError, match=message):
        make()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        make()  # not checked outside debug mode


def test_debug_mode_checks_variables_and_accepts_good_parameters():
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='scale'):
            D.Normal(chainer.Variable(numpy.zeros(2)), chainer.Variable(-numpy.ones(2)))
        D.Normal(0.0, 1.0)
        D.Categorical(numpy.full((2, 7), 1 / 7, numpy.float32))
        D.Bernoulli(numpy.array([0.0, 1.0]))


def test_bernoulli_extreme_probabilities():
    p = numpy.array([0.0, 1.0, 0.0, 1.0], numpy.float32)
    x = numpy.array([0.0, 1.0, 1.0, 0.0], numpy.float32)
    with numpy.errstate(divide='ignore'):
        d = D.Bernoulli(p)
        numpy.testing.assert_array_equal(d.log_prob(x).array, [0, 0, -numpy.inf, -numpy.inf])
        numpy.testing.assert_array_equal(d.entropy.array, [0, 0, 0, 0])
        numpy.testing.assert_array_equal(d.sample(10).array, numpy.tile(p, (10, 1)))
        # Between 0 and 1, the masses at 0 and 1 interpolated linearly: finite values.
        half = numpy.full(4, 0.25, numpy.float32)
        numpy.testing.assert_allclose(d.log_prob(half).array,
                                      numpy.log([0.75, 0.25, 0.75, 0.25]), rtol=1e-6)
        checked = D.Bernoulli(p, binary_check=True)
        assert (checked.log_prob(half).array == -numpy.inf).all()
        assert (checked.prob(half).array == 0).all()
        numpy.testing.assert_array_equal(checked.prob(x).array, [1, 1, 0, 0])


def test_bernoulli_logit_parameter():
    logit = numpy.array([-2.0, 0.5, 3.0])
    d = D.Bernoulli(logit=logit)
    p = 1 / (1 + numpy.exp(-logit))
    numpy.testing.assert_allclose(d.p.array, p)
    numpy.testing.assert_allclose(d.log_prob(numpy.array([1.0, 0.0, 1.0])).array,
                                  numpy.log([p[0], 1 - p[1], p[2]]))
    with pytest.raises(ValueError, match='either p or logit'):
        D.Bernoulli(p=0.5, logit=0.0)


@pytest.mark.parametrize('logit_shape,x_shape', [((2, 3), (2, 3)), ((), ()), ((), (3,))])
def test_bernoulli_log_prob_function_gradients(logit_shape, x_shape):
    logit = numpy.random.normal(size=logit_shape)
    x = numpy.random.randint(0, 2, x_shape).astype(numpy.float64)
    gy = numpy.random.normal(size=x_shape)
    ggl = numpy.random.normal(size=logit_shape)
    expected = x * logit - numpy.logaddexp(0, logit)
    numpy.testing.assert_allclose(bernoulli._bernoulli_log_prob(logit, x).array, expected)
    f = lambda logit: bernoulli._bernoulli_log_prob(logit, x)  # noqa: E731
    gradient_check.check_backward(f, logit, gy, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, logit, gy, ggl, atol=1e-6, rtol=1e-5)
    # Differentiable in x too (for relaxed samples): the gradient is the logit.
    gradient_check.check_backward(bernoulli._bernoulli_log_prob, (logit, x), gy,
                                  atol=1e-6, rtol=1e-5)


def test_bernoulli_log_prob_backward_at_infinite_logits():
    logit = chainer.Variable(numpy.array([numpy.inf, -numpy.inf, numpy.inf]))
    y = bernoulli._bernoulli_log_prob(logit, numpy.array([1.0, 0.0, 0.0]))
    numpy.testing.assert_array_equal(y.array, [0, 0, -numpy.inf])
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_array_equal(logit.grad, [0, 0, -1])


def test_modified_xlogx():
    x = numpy.array([0.0, 0.5, 2.0])
    expected = numpy.array([0.0, 0.5 * numpy.log(0.5), 2 * numpy.log(2)])
    numpy.testing.assert_allclose(utils._modified_xlogx(x).array, expected)
    positive = numpy.random.uniform(0.1, 1, (2, 3))
    gradient_check.check_backward(utils._modified_xlogx, positive,
                                  numpy.random.normal(size=(2, 3)), atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(utils._modified_xlogx, positive,
                                         numpy.random.normal(size=(2, 3)),
                                         numpy.random.normal(size=(2, 3)),
                                         atol=1e-6, rtol=1e-5)
    v = chainer.Variable(numpy.zeros(2))
    y = chainer.functions.sum(utils._modified_xlogx(v))
    with pytest.warns(RuntimeWarning, match='divide by zero'):
        y.backward()
    assert (v.grad == -numpy.inf).all()
