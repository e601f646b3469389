"""Triggers that fire when a reported value reaches a new best."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from chainer import reporter as reporter_module
from chainer.training.util import TriggerSpec, get_trigger

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class BestValueTrigger:
    """Fire when the mean of ``key`` over an interval is the best seen so far.

    Every call adds ``trainer.observation[key]`` (when present) to a running
    mean; when the interval ``trigger`` fires, the mean is compared with the
    best one: the trigger fires if there was none yet or
    ``compare(best, mean)`` is true.

    Args:
        key: The observation key to watch (e.g. ``'validation/main/loss'``).
        compare: ``compare(best_value, new_value) -> bool``, true when the new
            value is better.
        trigger: The interval of the comparisons; ``(1, 'epoch')`` by default.
    """

    def __init__(
        self, key: str, compare: Callable[[float, float], bool],
        trigger: TriggerSpec = (1, 'epoch'),
    ) -> None:
        self._key = key
        self._compare = compare
        self._interval_trigger = get_trigger(trigger)
        self._best_value: float | None = None
        self._summary = reporter_module.DictSummary()

    @property
    def best_value(self) -> float | None:
        """The best mean seen so far, or ``None``."""
        return self._best_value

    def __call__(self, trainer: Trainer) -> bool:
        """Return whether the interval just ended with a new best value."""
        observation = trainer.observation
        if self._key in observation:
            self._summary.add({self._key: observation[self._key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter_module.DictSummary()
        if self._key not in stats:
            return False
        value = float(stats[self._key])
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the interval trigger, the running mean and the best value."""
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        stored = serializer('best_value', float('nan') if self._best_value is None
                            else self._best_value)
        stored = float(stored)
        self._best_value = None if stored != stored else stored


class MaxValueTrigger(BestValueTrigger):
    """Fire when the mean of ``key`` over an interval reaches a new maximum.

    Args:
        key: The observation key to watch.
        trigger: The interval of the comparisons; ``(1, 'epoch')`` by default.
    """

    def __init__(self, key: str, trigger: TriggerSpec = (1, 'epoch')) -> None:
        super().__init__(key, lambda best, new: new > best, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fire when the mean of ``key`` over an interval reaches a new minimum.

    Args:
        key: The observation key to watch.
        trigger: The interval of the comparisons; ``(1, 'epoch')`` by default.
    """

    def __init__(self, key: str, trigger: TriggerSpec = (1, 'epoch')) -> None:
        super().__init__(key, lambda best, new: new < best, trigger)
