"""``PolynomialShift``: decay an optimizer hyperparameter polynomially to zero."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _clip, _ValueShift
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class PolynomialShift(_ValueShift):
    """Set ``optimizer.<attr>`` to ``init * (1 - t / max_count) ** rate`` after ``t`` calls.

    The factor is 0 once ``t >= max_count``.

    Args:
        attr: Name of the optimizer attribute.
        rate: Exponent of the decay.
        max_count: Number of calls until the value reaches zero (positive).
        init: Initial value; the optimizer's current value when ``None``.
        target: Value where the decay stops.
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.

    Raises:
        ValueError: for a non-positive ``max_count``.
    """

    def __init__(
        self, attr: str, rate: float, max_count: int, init: float | None = None,
        target: float | None = None, optimizer: Optimizer | None = None,
    ) -> None:
        if max_count <= 0:
            raise ValueError(f'PolynomialShift max_count must be positive, got {max_count}')
        super().__init__(attr, optimizer, init)
        self._rate = py_number(rate)
        self._max_count = py_number(max_count)
        self._target = py_number(target)

    def _value(self, t: int) -> float:
        decay = max(1 - t / self._max_count, 0.0)
        return _clip(self._init * decay ** self._rate, self._target, self._rate < 0)
