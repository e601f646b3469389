"""``ExponentialShift``: multiply an optimizer hyperparameter by a rate at each call."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _clip, _ValueShift
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class ExponentialShift(_ValueShift):
    """Set ``optimizer.<attr>`` to ``init * rate ** t`` after ``t`` calls.

    Typical use: ``trainer.extend(ExponentialShift('lr', 0.5), trigger=(10, 'epoch'))``.

    Args:
        attr: Name of the optimizer attribute (``'lr'``, ``'alpha'``, ...).
        rate: Factor applied at every call.
        init: Initial value; the optimizer's current value when ``None``.
        target: Value where the shift stops (it is never passed).
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.

    Raises:
        ValueError: for a negative rate.
    """

    def __init__(
        self, attr: str, rate: float, init: float | None = None, target: float | None = None,
        optimizer: Optimizer | None = None,
    ) -> None:
        if rate < 0:
            raise ValueError(f'ExponentialShift rate must be non-negative, got {rate}')
        super().__init__(attr, optimizer, init)
        self._rate = py_number(rate)
        self._target = py_number(target)

    def _value(self, t: int) -> float:
        return _clip(self._init * self._rate ** t, self._target, self._rate > 1)
