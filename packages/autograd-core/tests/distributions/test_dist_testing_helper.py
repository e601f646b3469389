"""chainer.testing.distribution_unittest: it runs the checks in test_targets, skips
the others, and fails for a distribution that disagrees with SciPy."""

import itertools
import unittest

import numpy
import pytest

from chainer import distributions as D
from chainer import testing

pytest.importorskip('scipy')

TARGETS = ['batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_prob', 'mean',
           'prob', 'sample', 'stddev', 'support', 'variance']


class _LaplaceCase(testing.distribution_unittest):
    """Laplace against scipy.stats.laplace (dist_class may be swapped)."""

    __test__ = False  # run by the tests below, with parameters
    scipy_onebyone = True
    dist_class = D.Laplace

    def setUp_configure(self):
        from scipy import stats
        self.dist = self.dist_class
        self.scipy_dist = stats.laplace
        self.test_targets = set(TARGETS)
        loc = numpy.random.uniform(-1, 1, self.shape).astype(numpy.float32)
        scale = numpy.exp(numpy.random.uniform(-1, 1, self.shape)).astype(numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return numpy.random.normal(size=self.sample_shape + self.shape).astype(numpy.float32)


class _WrongVariance(D.Laplace):
    @property
    def variance(self):
        return self.scale ** 2


def _run(dist_class, onebyone=True, shapes=((2, 3), ()), kinds=(True, False)):
    """Run the CPU checks over shapes and parameter kinds; the unittest result."""
    suite = unittest.TestSuite()
    for shape, is_variable in itertools.product(shapes, kinds):
        case = type('Case', (_LaplaceCase,), {
            'shape': shape, 'is_variable': is_variable, 'sample_shape': (2,),
            'dist_class': dist_class, 'scipy_onebyone': onebyone})
        names = unittest.TestLoader().getTestCaseNames(case)
        suite.addTests(case(n) for n in names if n.endswith('_cpu'))
    result = unittest.TestResult()
    suite.run(result)
    return result


def test_a_correct_distribution_passes_and_untargeted_checks_skip():
    result = _run(D.Laplace)
    assert result.wasSuccessful(), result.failures + result.errors
    skipped = {t._testMethodName for t, _ in result.skipped}
    # log_cdf and the survival functions are not targeted.
    assert {'test_log_cdf_cpu', 'test_survival_cpu', 'test_log_survival_cpu'} <= skipped
    assert result.testsRun - len(result.skipped) == 4 * len(TARGETS)


def test_scipy_called_on_the_whole_batch():
    result = _run(D.Laplace, onebyone=False, shapes=[(2, 3)], kinds=[False])
    assert result.wasSuccessful(), result.failures + result.errors
    assert result.testsRun - len(result.skipped) == len(TARGETS)


def test_a_wrong_distribution_fails():
    result = _run(_WrongVariance)
    failed = {t._testMethodName for t, _ in result.failures}
    assert failed == {'test_variance_cpu'}


def test_unknown_targets_are_rejected():
    class Bad(testing.distribution_unittest):
        def setUp_configure(self):
            self.test_targets = {'median'}
            self.params = {}

    with pytest.raises(ValueError, match='unknown test targets'):
        Bad('test_mean_cpu').setUp()
