"""Trigger that fires at a regular interval of wall-clock time."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class TimeTrigger:
    """Fire once every ``period`` seconds of training time (``trainer.elapsed_time``).

    Args:
        period: Interval in seconds (positive).

    Raises:
        ValueError: for a non-positive period.
    """

    def __init__(self, period: float) -> None:
        if not period > 0:
            raise ValueError(f'TimeTrigger period must be positive, got {period!r}')
        self._period = period
        self._next_time = period

    def __call__(self, trainer: Trainer) -> bool:
        """Return whether the next multiple of ``period`` has passed."""
        if trainer.elapsed_time >= self._next_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the time of the next firing."""
        self._next_time = float(serializer('next_time', self._next_time))
