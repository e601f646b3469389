"""``StepShift``: multiply an optimizer hyperparameter by ``gamma`` every ``step`` calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _clip, _ValueShift
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class StepShift(_ValueShift):
    """Set ``optimizer.<attr>`` to ``init * gamma ** (t // step)`` after ``t`` calls.

    Args:
        attr: Name of the optimizer attribute.
        gamma: Factor applied every ``step`` calls.
        step: Number of calls between two changes (positive).
        init: Initial value; the optimizer's current value when ``None``.
        target: Value where the shift stops.
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.

    Raises:
        ValueError: for a non-positive step.
    """

    def __init__(
        self, attr: str, gamma: float, step: int, init: float | None = None,
        target: float | None = None, optimizer: Optimizer | None = None,
    ) -> None:
        if step <= 0:
            raise ValueError(f'StepShift step must be positive, got {step}')
        super().__init__(attr, optimizer, init)
        self._gamma = py_number(gamma)
        self._step = py_number(step)
        self._target = py_number(target)

    def _value(self, t: int) -> float:
        return _clip(self._init * self._gamma ** (t // self._step), self._target, self._gamma > 1)
