"""A base test case checking a distribution of :mod:`chainer.distributions` against SciPy."""

from __future__ import annotations

import unittest
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer.backends import cuda
from chainer.testing import array as array_module
from chainer.testing import attr

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.distribution import Distribution

__all__ = ['distribution_unittest']

# test target of a function of points -> (name of the scipy.stats method, of the
# distribution's method)
_SCIPY_FUNCTIONS: dict[str, tuple[str, str]] = {
    'cdf': ('cdf', 'cdf'),
    'log_cdf': ('logcdf', 'log_cdf'),
    'survival': ('sf', 'survival_function'),
    'log_survival': ('logsf', 'log_survival_function'),
    'icdf': ('ppf', 'icdf'),
}
# test target of a property of the parameters -> name of the scipy.stats method
_SCIPY_PROPERTIES: dict[str, str] = {
    'entropy': 'entropy',
    'mean': 'mean',
    'variance': 'var',
    'stddev': 'std',
}
_TARGETS = ('batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf', 'log_prob',
            'log_survival', 'mean', 'prob', 'sample', 'stddev', 'support', 'survival',
            'variance')
_N_SAMPLES = 100000


class distribution_unittest(unittest.TestCase):
    """Base class of the tests of a distribution, comparing it with ``scipy.stats``.

    A subclass, parameterized with :func:`chainer.testing.parameterize` over ``shape``
    (the batch shape), ``is_variable`` (parameters given as variables or arrays) and
    ``sample_shape``, defines ``setUp_configure()`` which sets:

    - ``dist``: the distribution class (or a callable taking the parameters as keyword
      arguments);
    - ``scipy_dist``: the ``scipy.stats`` distribution to compare with;
    - ``params`` and ``scipy_params``: the parameters of each (dicts of arrays);
    - ``test_targets``: the names of the checks to run, among ``batch_shape``, ``cdf``,
      ``entropy``, ``event_shape``, ``icdf``, ``log_cdf``, ``log_prob``,
      ``log_survival``, ``mean``, ``prob``, ``sample``, ``stddev``, ``support``,
      ``survival`` and ``variance`` (the others are skipped);
    - optionally ``support`` (default ``'real'``), ``continuous`` (default True),
      ``event_shape`` (default ``()``) and ``options`` (other keyword arguments of
      ``dist``);

    and ``sample_for_test()``, returning points of shape
    ``sample_shape + shape + event_shape``. Each check ``X`` runs as ``test_X_cpu`` and
    ``test_X_gpu`` (marked ``gpu``) through the overridable method ``check_X(is_gpu)``.
    With ``scipy_onebyone`` True, SciPy is called once per member of the batch (for
    SciPy distributions that do not broadcast their parameters).
    """

    scipy_onebyone = False

    # Set by parameterize: the batch shape, whether the parameters are given as
    # variables, and the leading shape of the samples drawn.
    shape: tuple[int, ...]
    is_variable: bool
    sample_shape: tuple[int, ...]
    # Set by setUp_configure (see the class).
    dist: Callable[..., Distribution]
    scipy_dist: Any  # a scipy.stats distribution (SciPy is not a dependency: untyped here)
    params: dict[str, ArrayLike]
    scipy_params: dict[str, ArrayLike]
    event_shape: tuple[int, ...]

    def setUp(self) -> None:
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets: set[str] = set()
        self.options: dict[str, Any] = {}
        self.setUp_configure()
        unknown = set(self.test_targets) - set(_TARGETS)
        if unknown:
            raise ValueError(f'unknown test targets {sorted(unknown)}; the targets are '
                             f'{list(_TARGETS)}')
        self.params = {k: numpy.asarray(v) for k, v in self.params.items()}

    def setUp_configure(self) -> None:
        """Set ``dist``, ``scipy_dist``, the parameters and the targets (see the class)."""
        raise NotImplementedError('a distribution test defines setUp_configure()')

    def sample_for_test(self) -> numpy.ndarray:
        """Points of shape ``sample_shape + shape + event_shape`` to evaluate at."""
        raise NotImplementedError('a distribution test defines sample_for_test()')

    # -- the distributions under test --------------------------------------------------

    def _make_dist(self, to_device: Callable[[Any], Any]) -> Distribution:
        params: dict[str, Any] = {}
        for name, value in self.params.items():
            value = to_device(value)
            params[name] = chainer.Variable(value) if self.is_variable else value
        params.update(self.options)
        return self.dist(**params)

    @property
    def cpu_dist(self) -> Distribution:
        """A new instance of the distribution with its parameters on the CPU."""
        return self._make_dist(lambda a: a)

    @property
    def gpu_dist(self) -> Distribution:
        """A new instance of the distribution with its parameters on the current GPU."""
        return self._make_dist(cuda.to_gpu)

    def _dist(self, is_gpu: bool) -> Distribution:
        return self.gpu_dist if is_gpu else self.cpu_dist

    # -- SciPy reference -------------------------------------------------------------

    def scipy_onebyone_params_iter(self) -> Iterator[dict[str, Any]]:
        """The SciPy parameters of each member of the batch, in C order."""
        for index in numpy.ndindex(*self.shape):
            yield {k: numpy.asarray(v)[index] if numpy.ndim(v) else v
                   for k, v in self.scipy_params.items()}

    def _scipy_at(self, method: str, points: numpy.ndarray) -> numpy.ndarray:
        """``scipy_dist.<method>`` at ``points`` (of shape ``sample + shape + event``),
        of shape ``sample + shape``."""
        fn = getattr(self.scipy_dist, method)
        if not self.scipy_onebyone:
            return numpy.asarray(fn(points, **self.scipy_params))
        n_event = len(self.event_shape)
        sample_shape = points.shape[:points.ndim - len(self.shape) - n_event]
        lead = (slice(None),) * len(sample_shape)
        out = numpy.empty(sample_shape + tuple(self.shape))
        for index, params in zip(numpy.ndindex(*self.shape), self.scipy_onebyone_params_iter()):
            one = points[lead + index]
            if n_event:
                one = one.reshape(sample_shape + (-1,))
            out[lead + index] = numpy.asarray(fn(one, **params)).reshape(sample_shape)
        return out

    def _scipy_property(self, method: str, tail: tuple[int, ...]) -> numpy.ndarray:
        """``scipy_dist.<method>`` of the parameters, of shape ``shape + tail``."""
        fn = getattr(self.scipy_dist, method)
        if not self.scipy_onebyone:
            return numpy.asarray(fn(**self.scipy_params))
        out = numpy.empty(tuple(self.shape) + tail)
        for index, params in zip(numpy.ndindex(*self.shape), self.scipy_onebyone_params_iter()):
            out[index] = numpy.asarray(fn(**params)).reshape(tail)
        return out

    def _scipy_samples(self, n: int) -> numpy.ndarray:
        """``n`` SciPy samples of shape ``(n,) + sample_shape + shape + event_shape``."""
        size = (n,) + tuple(self.sample_shape)
        if not self.scipy_onebyone:
            return numpy.asarray(self.scipy_dist.rvs(
                size=size + tuple(self.shape) + tuple(self.event_shape), **self.scipy_params))
        lead = (slice(None),) * len(size)
        out = numpy.empty(size + tuple(self.shape) + tuple(self.event_shape))
        for index, params in zip(numpy.ndindex(*self.shape), self.scipy_onebyone_params_iter()):
            smp = numpy.asarray(self.scipy_dist.rvs(size=size, **params))
            out[lead + index] = smp.reshape(size + tuple(self.event_shape))
        return out

    # -- checks ------------------------------------------------------------------------

    def check_batch_shape(self, is_gpu: bool) -> None:
        self.assertEqual(self._dist(is_gpu).batch_shape, tuple(self.shape))

    def check_event_shape(self, is_gpu: bool) -> None:
        self.assertEqual(self._dist(is_gpu).event_shape, tuple(self.event_shape))

    def check_support(self, is_gpu: bool) -> None:
        self.assertEqual(self._dist(is_gpu).support, self.support)

    def _check_function(self, target: str, is_gpu: bool) -> None:
        method, attr_name = _SCIPY_FUNCTIONS[target]
        if target == 'icdf':
            points = numpy.random.uniform(
                1e-5, 1 - 1e-5, tuple(self.sample_shape) + tuple(self.shape)
            ).astype(numpy.float32)
        else:
            points = numpy.asarray(self.sample_for_test())
        dist = self._dist(is_gpu)
        arg = cuda.to_gpu(points) if is_gpu else points
        actual = cuda.to_cpu(getattr(dist, attr_name)(arg).array)
        array_module.assert_allclose(actual, self._scipy_at(method, points))

    def _check_property(self, target: str, is_gpu: bool) -> None:
        method = _SCIPY_PROPERTIES[target]
        actual = cuda.to_cpu(getattr(self._dist(is_gpu), target).array)
        tail = () if target == 'entropy' else tuple(self.event_shape)
        array_module.assert_allclose(actual, self._scipy_property(method, tail))

    def check_log_prob(self, is_gpu: bool) -> None:
        points = numpy.asarray(self.sample_for_test())
        dist = self._dist(is_gpu)
        actual = dist.log_prob(cuda.to_gpu(points) if is_gpu else points).array
        method = 'logpdf' if self.continuous else 'logpmf'
        array_module.assert_allclose(cuda.to_cpu(actual), self._scipy_at(method, points))

    def check_prob(self, is_gpu: bool) -> None:
        points = numpy.asarray(self.sample_for_test())
        dist = self._dist(is_gpu)
        actual = dist.prob(cuda.to_gpu(points) if is_gpu else points).array
        method = 'pdf' if self.continuous else 'pmf'
        array_module.assert_allclose(cuda.to_cpu(actual), self._scipy_at(method, points))

    def check_cdf(self, is_gpu: bool) -> None:
        self._check_function('cdf', is_gpu)

    def check_log_cdf(self, is_gpu: bool) -> None:
        self._check_function('log_cdf', is_gpu)

    def check_survival(self, is_gpu: bool) -> None:
        self._check_function('survival', is_gpu)

    def check_log_survival(self, is_gpu: bool) -> None:
        self._check_function('log_survival', is_gpu)

    def check_icdf(self, is_gpu: bool) -> None:
        self._check_function('icdf', is_gpu)

    def check_entropy(self, is_gpu: bool) -> None:
        self._check_property('entropy', is_gpu)

    def check_mean(self, is_gpu: bool) -> None:
        self._check_property('mean', is_gpu)

    def check_variance(self, is_gpu: bool) -> None:
        self._check_property('variance', is_gpu)

    def check_stddev(self, is_gpu: bool) -> None:
        self._check_property('stddev', is_gpu)

    def check_sample(self, is_gpu: bool) -> None:
        """The mean and the standard deviation of many samples match SciPy's."""
        dist = self._dist(is_gpu)
        smp1 = cuda.to_cpu(dist.sample(
            sample_shape=(_N_SAMPLES,) + tuple(self.sample_shape)).array)
        smp2 = self._scipy_samples(_N_SAMPLES)
        array_module.assert_allclose(smp1.mean(axis=0), smp2.mean(axis=0),
                                     atol=3e-2, rtol=3e-2)
        array_module.assert_allclose(smp1.std(axis=0), smp2.std(axis=0),
                                     atol=3e-2, rtol=3e-2)


def _add_tests(target: str) -> None:
    def run(self: distribution_unittest, is_gpu: bool) -> None:
        if target not in self.test_targets:
            self.skipTest(f'{target!r} is not in test_targets')
        getattr(self, f'check_{target}')(is_gpu)

    def test_cpu(self: distribution_unittest) -> None:
        run(self, False)

    @attr.gpu
    def test_gpu(self: distribution_unittest) -> None:
        run(self, True)

    for fn, device in ((test_cpu, 'cpu'), (test_gpu, 'gpu')):
        name = f'test_{target}_{device}'
        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f'Check {target} on the {device.upper()} (when in test_targets).'
        setattr(distribution_unittest, name, fn)


for _target in _TARGETS:
    _add_tests(_target)
del _target
