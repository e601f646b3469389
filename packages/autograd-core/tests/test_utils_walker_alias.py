"""chainer.utils.WalkerAlias: sampling frequencies, shapes, devices, errors."""

import numpy
import pytest

from chainer import utils
from chainer.backends import cuda
from chainer.testing import attr


@pytest.mark.parametrize('probs', [
    [0.5, 0.25, 0.25],
    [1, 2, 3, 4],
    [0.0, 1.0, 0.0, 3.0],
    [1.0],
    numpy.random.RandomState(3).uniform(size=50),
])
def test_frequencies_follow_probabilities(probs):
    numpy.random.seed(1)
    sampler = utils.WalkerAlias(probs)
    n = 200_000
    samples = sampler.sample((n,))
    p = numpy.asarray(probs, dtype=numpy.float64)
    p = p / p.sum()
    freq = numpy.bincount(samples, minlength=len(p)) / n
    # Four standard deviations of a binomial frequency.
    tol = 4 * numpy.sqrt(p * (1 - p) / n) + 1e-12
    assert (numpy.abs(freq - p) <= tol).all()
    assert (freq[p == 0] == 0).all()


def test_sample_shape_and_dtype():
    sampler = utils.WalkerAlias([0.1, 0.9])
    s = sampler.sample((3, 4))
    assert s.shape == (3, 4) and s.dtype == numpy.int32
    assert isinstance(s, numpy.ndarray) and set(numpy.unique(s)) <= {0, 1}
    assert sampler.sample(()).shape == ()
    assert sampler.use_gpu is False


def test_table_is_consistent():
    sampler = utils.WalkerAlias([3, 1, 0, 4])
    n = len(sampler.threshold)
    # Probability of index i: its own kept share plus the shares aliased to it.
    assert sampler.values.shape == (2 * n,)
    mass = numpy.zeros(n)
    for j in range(n):
        mass[sampler.values[2 * j]] += sampler.threshold[j]
        mass[sampler.values[2 * j + 1]] += 1 - sampler.threshold[j]
    numpy.testing.assert_allclose(mass / n, [3 / 8, 1 / 8, 0, 4 / 8], atol=1e-7)


@pytest.mark.parametrize('probs, match', [
    ([], 'non-empty'), ([[0.5, 0.5]], 'non-empty'), ([0.5, -0.1], 'non-negative'),
    ([0.0, 0.0], 'zero'), ([numpy.nan, 1.0], 'finite'),
])
def test_bad_probabilities(probs, match):
    with pytest.raises(ValueError, match=match):
        utils.WalkerAlias(probs)


def test_to_cpu_and_to_device():
    sampler = utils.WalkerAlias([1, 2])
    assert sampler.to_cpu() is sampler and sampler.to_device('@numpy') is sampler
    assert isinstance(sampler.sample((2,)), numpy.ndarray)


@pytest.mark.skipif(cuda.available, reason='checks the error raised without CUDA')
def test_to_gpu_without_cuda():
    with pytest.raises(RuntimeError, match='CUDA'):
        utils.WalkerAlias([1, 2]).to_gpu()


@attr.gpu
def test_sampling_on_gpu():
    sampler = utils.WalkerAlias([1, 2, 0, 5]).to_gpu()
    assert sampler.use_gpu
    s = sampler.sample((100_000,))
    assert isinstance(s, cuda.cupy.ndarray) and s.dtype == numpy.int32
    freq = numpy.bincount(cuda.to_cpu(s), minlength=4) / s.size
    numpy.testing.assert_allclose(freq, [1 / 8, 2 / 8, 0, 5 / 8], atol=0.01)
    assert isinstance(sampler.to_cpu().sample((3,)), numpy.ndarray)
