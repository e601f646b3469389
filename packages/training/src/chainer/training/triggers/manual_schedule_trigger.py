"""Trigger that fires at given epochs or iterations."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from chainer.utils.numeric_args import is_real, py_number

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class ManualScheduleTrigger:
    """Fire when training reaches one of the given points.

    It fires at the first iteration whose epoch (or iteration) count reaches
    a point, i.e. when ``previous < point <= current``.

    Args:
        points: A number or a sequence of numbers.
        unit: ``'epoch'`` or ``'iteration'``.

    Raises:
        ValueError: for an unknown unit or no points.
    """

    def __init__(self, points: float | Sequence[float], unit: str) -> None:
        if unit not in ('epoch', 'iteration'):
            raise ValueError(f"trigger unit must be 'epoch' or 'iteration', got {unit!r}")
        # NumPy numbers (numpy.int64(3), a 0-d array) count as Python numbers
        if is_real(points):
            values = [py_number(points)]
        elif isinstance(points, Iterable):
            values = [py_number(p) for p in points]
        else:
            raise TypeError(f'ManualScheduleTrigger: points must be a number or a sequence '
                            f'of numbers, not {type(points).__name__}')
        if not values:
            raise ValueError('ManualScheduleTrigger needs at least one point')
        self.points = values
        self.unit = unit
        self.finished = False
        self._finished_unknown = False  # loaded from a snapshot without 'finished'
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.0

    def __call__(self, trainer: Trainer) -> bool:
        """Return whether a point was reached since the last call."""
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                before = updater.previous_epoch_detail
                previous = current if before is None else before
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        fire = any(previous < p <= current for p in self.points)
        if (fire or self._finished_unknown) and current >= max(self.points):
            self.finished = True
        self._finished_unknown = False
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def get_training_length(self) -> tuple[float, str]:
        """Return ``(last point, unit)``."""
        return max(self.points), self.unit

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the position seen at the last call and ``finished``.

        Snapshots of older Chainer versions lack some of these values: they are
        then guessed at the next call (from the updater's previous epoch, and
        ``finished`` from the current position), with a warning.
        """
        try:
            self._previous_iteration = serializer('previous_iteration', self._previous_iteration)
        except KeyError:
            warnings.warn('ManualScheduleTrigger: previous_iteration is missing from the '
                          'snapshot', UserWarning)
            self._previous_iteration = -1
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail
            )
        except KeyError:
            warnings.warn('ManualScheduleTrigger: previous_epoch_detail is missing from the '
                          'snapshot', UserWarning)
            self._previous_epoch_detail = -1.0
        try:
            self.finished = bool(serializer('finished', self.finished))
        except KeyError:
            warnings.warn('ManualScheduleTrigger: finished is missing from the snapshot; it '
                          'is decided at the next call', UserWarning)
            self._finished_unknown = True
