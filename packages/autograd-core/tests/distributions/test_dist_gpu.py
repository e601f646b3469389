"""Every distribution on CuPy: values and parameter gradients match NumPy, samples stay
on the device with the expected shape, and the KL divergences agree."""

import numpy
import pytest

import chainer
from chainer import distributions as D

pytestmark = pytest.mark.gpu

SHAPE = (2, 3)


def _u(lo, hi, shape=SHAPE):
    return numpy.random.uniform(lo, hi, shape).astype(numpy.float32)


def _tril():
    a = numpy.random.normal(size=SHAPE + (3, 3))
    return numpy.linalg.cholesky(a @ numpy.swapaxes(a, -1, -2) + numpy.eye(3)).astype(
        numpy.float32)


# name -> (constructor, params, points)
CASES = {
    'bernoulli': (D.Bernoulli, lambda: {'p': _u(0.1, 0.9)},
                  lambda: numpy.random.randint(0, 2, SHAPE).astype(numpy.float32)),
    'beta': (D.Beta, lambda: {'a': _u(0.5, 3), 'b': _u(0.5, 3)}, lambda: _u(0.1, 0.9)),
    'categorical': (D.Categorical, lambda: {'p': numpy.full(SHAPE + (4,), 0.25, 'f')},
                    lambda: numpy.random.randint(0, 4, SHAPE).astype(numpy.int32)),
    'cauchy': (D.Cauchy, lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)}, lambda: _u(-2, 2)),
    'chisquare': (D.Chisquare, lambda: {'k': _u(1, 5)}, lambda: _u(0.1, 3)),
    'dirichlet': (D.Dirichlet, lambda: {'alpha': _u(0.5, 3, SHAPE + (3,))},
                  lambda: numpy.full(SHAPE + (3,), 1 / 3, numpy.float32)),
    'exponential': (D.Exponential, lambda: {'lam': _u(0.5, 2)}, lambda: _u(0.1, 3)),
    'gamma': (D.Gamma, lambda: {'k': _u(0.5, 3), 'theta': _u(0.5, 2)}, lambda: _u(0.1, 3)),
    'geometric': (D.Geometric, lambda: {'p': _u(0.2, 0.8)},
                  lambda: numpy.random.randint(1, 5, SHAPE).astype(numpy.int32)),
    'gumbel': (D.Gumbel, lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)}, lambda: _u(-2, 2)),
    'laplace': (D.Laplace, lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)},
                lambda: _u(-2, 2)),
    'log_normal': (D.LogNormal, lambda: {'mu': _u(-1, 1), 'sigma': _u(0.5, 1)},
                   lambda: _u(0.1, 3)),
    'multivariate_normal': (D.MultivariateNormal,
                            lambda: {'loc': _u(-1, 1, SHAPE + (3,)), 'scale_tril': _tril()},
                            lambda: _u(-1, 1, SHAPE + (3,))),
    'normal': (D.Normal, lambda: {'loc': _u(-1, 1), 'scale': _u(0.5, 2)}, lambda: _u(-2, 2)),
    'one_hot_categorical': (D.OneHotCategorical,
                            lambda: {'p': numpy.full(SHAPE + (4,), 0.25, 'f')},
                            lambda: numpy.eye(4, dtype='f')[numpy.random.randint(0, 4, SHAPE)]),
    'pareto': (D.Pareto, lambda: {'scale': _u(0.5, 1), 'alpha': _u(1, 3)}, lambda: _u(1, 3)),
    'poisson': (D.Poisson, lambda: {'lam': _u(1, 5)},
                lambda: numpy.random.randint(0, 6, SHAPE).astype(numpy.int32)),
    'uniform': (lambda low, high: D.Uniform(low=low, high=high),
                lambda: {'low': _u(-2, -1), 'high': _u(1, 2)}, lambda: _u(-1, 1)),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_matches_numpy(name):
    cupy = pytest.importorskip('cupy')
    make, params, points = CASES[name]
    p = params()
    x = points()
    cpu = {k: chainer.Variable(v) for k, v in p.items()}
    gpu = {k: chainer.Variable(cupy.asarray(v)) for k, v in p.items()}
    d_cpu, d_gpu = make(**cpu), make(**gpu)
    lp_cpu, lp_gpu = d_cpu.log_prob(x), d_gpu.log_prob(cupy.asarray(x))
    assert isinstance(lp_gpu.array, cupy.ndarray)
    numpy.testing.assert_allclose(cupy.asnumpy(lp_gpu.array), lp_cpu.array,
                                  rtol=1e-4, atol=1e-5)
    chainer.functions.sum(lp_cpu).backward()
    chainer.functions.sum(lp_gpu).backward()
    for k in p:
        if cpu[k].grad is not None:
            numpy.testing.assert_allclose(cupy.asnumpy(gpu[k].grad), cpu[k].grad,
                                          rtol=1e-4, atol=1e-5)
    s = d_gpu.sample(5)
    assert isinstance(s.array, cupy.ndarray)
    assert s.shape == (5,) + d_cpu.batch_shape + d_cpu.event_shape
    if name != 'poisson':  # no entropy in closed form
        numpy.testing.assert_allclose(cupy.asnumpy(d_gpu.entropy.array),
                                      d_cpu.entropy.array, rtol=1e-4, atol=1e-5)
    if name in ('cauchy', 'chisquare'):  # no KL divergence registered
        return
    kl_cpu = chainer.kl_divergence(d_cpu, make(**{k: v * 1 for k, v in cpu.items()}))
    kl_gpu = chainer.kl_divergence(d_gpu, make(**{k: v * 1 for k, v in gpu.items()}))
    numpy.testing.assert_allclose(cupy.asnumpy(kl_gpu.array), kl_cpu.array, atol=1e-5)


def test_numpy_points_follow_the_parameters_to_the_gpu():
    cupy = pytest.importorskip('cupy')
    d = D.Normal(cupy.zeros(3, numpy.float32), cupy.ones(3, numpy.float32))
    assert isinstance(d.log_prob(numpy.zeros(3, numpy.float32)).array, cupy.ndarray)
    with chainer.using_config('debug', True), pytest.raises(ValueError, match=r'scale\[1\]'):
        D.Normal(cupy.zeros(3, numpy.float32), cupy.array([1, -1, 1], numpy.float32))
