"""``InverseShift``: decay an optimizer hyperparameter as ``(1 + gamma t) ** -power``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _clip, _ValueShift
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class InverseShift(_ValueShift):
    """Set ``optimizer.<attr>`` to ``init * (1 + gamma * t) ** (-power)`` after ``t`` calls.

    Args:
        attr: Name of the optimizer attribute.
        gamma: Rate of the decay (non-negative).
        power: Exponent of the decay.
        init: Initial value; the optimizer's current value when ``None``.
        target: Value where the shift stops.
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.

    Raises:
        ValueError: for a negative gamma.
    """

    def __init__(
        self, attr: str, gamma: float, power: float, init: float | None = None,
        target: float | None = None, optimizer: Optimizer | None = None,
    ) -> None:
        if gamma < 0:
            raise ValueError(f'InverseShift gamma must be non-negative, got {gamma}')
        super().__init__(attr, optimizer, init)
        self._gamma = py_number(gamma)
        self._power = py_number(power)
        self._target = py_number(target)

    def _value(self, t: int) -> float:
        value = self._init * (1 + self._gamma * t) ** (-self._power)
        return _clip(value, self._target, self._power < 0)
