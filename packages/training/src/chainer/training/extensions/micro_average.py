"""The ``MicroAverage`` extension: a ratio of sums reported over an interval."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import reporter as reporter_module
from chainer import variable
from chainer.training import extension
from chainer.training.triggers.interval_trigger import IntervalTrigger
from chainer.training.util import TriggerSpec, _serialize_own_state, get_trigger

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


def _to_float(value: Any) -> float:
    if isinstance(value, variable.Variable):
        value = value.array
    try:
        return float(value)
    except TypeError as e:
        raise TypeError(f'MicroAverage sums scalars, got {type(value).__name__}') from e


class MicroAverage(extension.Extension):
    """Report ``sum(numerator) / sum(denominator)`` of two observed values per interval.

    A micro average weighs every example equally, where the mean of per-batch
    ratios would weigh every batch equally. For example, with a model that reports
    the number of correct predictions as ``'main/correct'`` and of predictions as
    ``'main/total'``, ``MicroAverage('main/correct', 'main/total', 'main/accuracy')``
    reports the accuracy over the whole interval.

    At each call where both keys were reported the values are added to two running
    sums; when ``trigger`` fires the ratio is reported as ``result_key`` and the
    sums restart. Its priority is :data:`~chainer.training.PRIORITY_EDITOR`, so a
    :class:`LogReport` sees the result.

    Args:
        numerator_key: Observation key of the numerator.
        denominator_key: Observation key of the denominator.
        result_key: Key the ratio is reported as.
        trigger: When to report; ``(1, 'epoch')`` by default.
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(
        self, numerator_key: str, denominator_key: str, result_key: str,
        trigger: TriggerSpec = (1, 'epoch'),
    ) -> None:
        self._trigger = get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0.0
        self._denominator = 0.0

    def __call__(self, trainer: Trainer) -> None:
        """Add the observed values; report the ratio when the trigger fires.

        Raises:
            TypeError: if an observed value is not a scalar.
        """
        observation = trainer.observation
        if self._numerator_key not in observation or self._denominator_key not in observation:
            return
        self._numerator += _to_float(observation[self._numerator_key])
        self._denominator += _to_float(observation[self._denominator_key])
        if self._trigger(trainer):
            result = (self._numerator / self._denominator if self._denominator
                      else float('nan'))
            self._numerator = 0.0
            self._denominator = 0.0
            reporter_module.report({self._result_key: result})

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the running sums and the trigger's state.

        A snapshot of Chainer v7 holds no trigger state: the trigger then starts afresh,
        as in v7.
        """
        if isinstance(self._trigger, IntervalTrigger):
            _serialize_own_state(self._trigger, serializer, 'trigger', 'previous_iteration')
        self._numerator = float(serializer('_numerator', self._numerator))
        self._denominator = float(serializer('_denominator', self._denominator))
