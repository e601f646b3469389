"""The ``ParameterStatistics`` extension: statistics of parameters and gradients."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer import reporter as reporter_module
from chainer.training import extension
from chainer.training.triggers.interval_trigger import IntervalTrigger
from chainer.training.util import TriggerSpec, _serialize_own_state, get_trigger

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer

_PERCENTILE_SIGMAS = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)
"""Percentiles of the normal distribution at -3, -2, -1, 0, 1, 2 and 3 sigmas."""


def _percentiles(x: Any) -> Any:
    xp = backend.get_array_module(x)
    if x.size == 0:
        return xp.full(len(_PERCENTILE_SIGMAS), numpy.nan, dtype=numpy.float64)
    return xp.percentile(x, _PERCENTILE_SIGMAS)


# module-level lambdas, as in v7 (tests name parameterized classes after their repr)
_DEFAULT_STATISTICS: dict[str, Callable[[Any], Any]] = {
    'mean': lambda x: backend.get_array_module(x).mean(x),
    'std': lambda x: backend.get_array_module(x).std(x),
    'min': lambda x: backend.get_array_module(x).min(x),
    'max': lambda x: backend.get_array_module(x).max(x),
    'zeros': lambda x: backend.get_array_module(x).count_nonzero(x == 0),
    'percentile': lambda x: _percentiles(x),
}


class ParameterStatistics(extension.Extension):
    """Report statistics of the parameters (and their gradients) of links.

    At every call the statistics of each parameter's data and/or gradient (as a
    flat array) are added to a running summary; when ``trigger`` fires their means
    are reported, under keys ``'{prefix}/{link name}/{param path}/{data|grad}/{stat}'``
    (e.g. ``'main/predictor/l1/W/data/mean'``). A statistic returning several values
    (``percentile``) gives one key per value, suffixed ``/0``, ``/1``, ...
    Parameters not initialized yet and gradients that are None are skipped.

    Args:
        links: A link or links whose parameters are watched.
        statistics: A dict ``{name: function}`` of functions of a flat array
            returning a scalar or a 1-d array; ``'default'`` for
            :attr:`default_statistics` (mean, std, min, max, zeros and 7
            percentiles); ``None`` for none (add some with
            :meth:`register_statistics`).
        report_params: Report statistics of the parameters' data.
        report_grads: Report statistics of their gradients.
        prefix: Prefix of the keys.
        trigger: When to report the means; ``(1, 'epoch')`` by default.
        skip_nan_params: Report NaN without calling the functions for an array
            holding NaN (e.g. the gradients before the first update), instead of
            calling them (which may warn).
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER

    report_key_template = '{prefix}{link_name}{param_name}/{attr_name}/{function_name}'
    """Template of the reported keys."""

    default_statistics: dict[str, Callable[[Any], Any]] = _DEFAULT_STATISTICS
    """The statistics of ``statistics='default'``."""

    def __init__(
        self,
        links: Link | list[Link] | tuple[Link, ...],
        statistics: dict[str, Callable[[Any], Any]] | str | None = 'default',
        report_params: bool = True,
        report_grads: bool = True,
        prefix: str | None = None,
        trigger: TriggerSpec = (1, 'epoch'),
        skip_nan_params: bool = False,
    ) -> None:
        if not isinstance(links, (list, tuple)):
            links = (links,)
        self._links = list(links)
        if statistics is None:
            statistics = {}
        elif isinstance(statistics, str):
            if statistics != 'default':
                raise ValueError(f"statistics must be a dict, 'default' or None, got "
                                 f'{statistics!r}')
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        attrs = []
        if report_params:
            attrs.append('data')
        if report_grads:
            attrs.append('grad')
        self._attrs = attrs
        self._prefix = prefix
        self._trigger = get_trigger(trigger)
        self._summary = reporter_module.DictSummary()
        self._skip_nan_params = skip_nan_params

    def register_statistics(self, name: str, function: Callable[[Any], Any]) -> None:
        """Add the statistic ``name``, computed by ``function`` (of a flat array)."""
        self._statistics[name] = function

    def _key(self, link_name: str, param_name: str, attr_name: str, function_name: str) -> str:
        return self.report_key_template.format(
            prefix=self._prefix + '/' if self._prefix else '',
            link_name=link_name, param_name=param_name, attr_name=attr_name,
            function_name=function_name)

    def __call__(self, trainer: Trainer) -> None:
        """Add the current statistics; report their means when the trigger fires."""
        statistics: dict[str, Any] = {}
        for link in self._links:
            link_name = str(getattr(link, 'name', None))
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = getattr(param, attr_name)
                    if array is None:
                        continue
                    statistics.update(self._statistics_of(
                        array.ravel(), link_name, param_name, attr_name))
        self._summary.add(statistics)
        if self._trigger(trainer):
            reporter_module.report(self._summary.compute_mean())
            self._summary = reporter_module.DictSummary()

    def _statistics_of(self, flat: Any, link_name: str, param_name: str,
                       attr_name: str) -> dict[str, Any]:
        xp = backend.get_array_module(flat)
        has_nan = self._skip_nan_params and bool(xp.isnan(flat).any())
        out: dict[str, Any] = {}
        for function_name, function in self._statistics.items():
            key = self._key(link_name, param_name, attr_name, function_name)
            if has_nan:
                out[key] = numpy.nan
                continue
            value = function(flat)
            if getattr(value, 'size', 1) > 1:
                out.update({f'{key}/{i}': v for i, v in enumerate(value.ravel())})
            else:
                out[key] = value
        return out

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the trigger's state and the running summary.

        Chainer v7 saved neither: loading its snapshots leaves them as they are.
        """
        if isinstance(self._trigger, IntervalTrigger):
            _serialize_own_state(self._trigger, serializer, 'trigger', 'previous_iteration')
        _serialize_own_state(self._summary, serializer, 'summary', '_names')
