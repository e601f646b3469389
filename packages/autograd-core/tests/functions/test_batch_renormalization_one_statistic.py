"""F.batch_renormalization given only one of its running statistics: the other starts
as documented (mean zeros, variance ones) and the given one is used and updated."""

import numpy
import pytest

import chainer.functions as F


def _reference(x, gamma, beta, rmax, dmax, eps, running_mean, running_var):
    mean = x.mean(axis=0)
    std = numpy.sqrt(x.var(axis=0) + eps)
    running_std = numpy.sqrt(running_var + eps)
    r = numpy.clip(std / running_std, 1 / rmax, rmax)
    d = numpy.clip((mean - running_mean) / running_std, -dmax, dmax)
    return gamma * ((x - mean) / std * r + d) + beta


@pytest.mark.parametrize('given', ['mean', 'var'])
def test_one_running_statistic(given):
    rng = numpy.random.default_rng(0)
    x = rng.normal(size=(6, 3))
    gamma = rng.uniform(0.5, 1.5, size=3)
    beta = rng.normal(size=3)
    stat = rng.uniform(0.5, 2.0, size=3)
    kept = stat.copy()
    kwargs = {'running_mean': stat} if given == 'mean' else {'running_var': stat}
    y = F.batch_renormalization(x, gamma, beta, rmax=1.5, dmax=0.5, eps=1e-5,
                                decay=0.9, update_statistics=True, **kwargs)
    ref_mean = kept if given == 'mean' else numpy.zeros(3)
    ref_var = kept if given == 'var' else numpy.ones(3)
    numpy.testing.assert_allclose(
        y.array, _reference(x, gamma, beta, 1.5, 0.5, 1e-5, ref_mean, ref_var), rtol=1e-6)
    # the given statistic is updated in place
    if given == 'mean':
        numpy.testing.assert_allclose(stat, 0.9 * kept + 0.1 * x.mean(axis=0), rtol=1e-6)
    else:
        numpy.testing.assert_allclose(stat, 0.9 * kept + 0.1 * x.var(axis=0, ddof=1),
                                      rtol=1e-6)
