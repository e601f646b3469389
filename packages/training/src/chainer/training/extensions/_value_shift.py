"""Shared machinery of the extensions that schedule an optimizer hyperparameter."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from chainer.training import extension
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class _ValueShift(extension.Extension):
    """Base of ``ExponentialShift``, ``LinearShift``, ...: sets ``optimizer.<attr>``.

    Subclasses implement ``_value(t)``, the value after ``t`` calls. The
    value is applied when training starts (``t = 0``, or the last value after
    a resume) and after every call of the extension (default trigger: every
    iteration). The call count and last value are saved in snapshots.
    """

    def __init__(self, attr: str, optimizer: Optimizer | None = None,
                 init: float | None = None) -> None:
        self._attr = attr
        self._optimizer = optimizer
        self._init = py_number(init)
        self._t = 0
        self._last_value: float | None = None

    def _get_optimizer(self, trainer: Trainer) -> Any:
        if self._optimizer is not None:
            return self._optimizer
        return trainer.updater.get_optimizer('main')

    def _set(self, optimizer: Any, value: float) -> None:
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def initialize(self, trainer: Trainer) -> None:
        """Read the initial value if needed and apply the current one."""
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = py_number(getattr(optimizer, self._attr))
        value = self._last_value if self._last_value is not None else self._value(self._t)
        self._set(optimizer, value)

    def __call__(self, trainer: Trainer) -> None:
        """Advance the schedule by one step and apply the new value."""
        self._t += 1
        self._set(self._get_optimizer(trainer), self._value(self._t))

    def _value(self, t: int) -> float:
        raise NotImplementedError

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the step count and the last value."""
        self._t = int(serializer('_t', self._t))
        stored = math.nan if self._last_value is None else self._last_value
        last = float(serializer('_last_value', stored))
        self._last_value = None if math.isnan(last) else last


def _clip(value: float, target: float | None, growing: bool) -> float:
    """Stop ``value`` at ``target`` once its magnitude passes the target's.

    ``growing`` tells whether the schedule makes the magnitude grow (a rate above
    one) or shrink; values of either sign are handled as Chainer v7 does:
    a growing value is clipped once ``target / value < 1``, a shrinking one once
    ``target / value > 1`` (a shrinking value that reached 0 is clipped too).
    """
    if target is None:
        return value
    if value == 0:
        return target if not growing and target != 0 else value
    ratio = target / value
    passed = ratio < 1 if growing else ratio > 1
    return target if passed else value
