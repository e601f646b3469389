"""``LinearShift``: move an optimizer hyperparameter linearly between two values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _ValueShift
from chainer.utils.numeric_args import py_numbers

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class LinearShift(_ValueShift):
    """Interpolate ``optimizer.<attr>`` linearly over a range of calls.

    After ``t`` calls the value is ``value_range[0]`` for ``t <= time_range[0]``,
    ``value_range[1]`` for ``t >= time_range[1]`` and linear in between.

    Args:
        attr: Name of the optimizer attribute.
        value_range: ``(first value, last value)``.
        time_range: ``(first call, last call)`` of the interpolation.
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.

    Raises:
        ValueError: if ``time_range`` is not increasing.
    """

    def __init__(
        self, attr: str, value_range: tuple[float, float], time_range: tuple[int, int],
        optimizer: Optimizer | None = None,
    ) -> None:
        if time_range[1] <= time_range[0]:
            raise ValueError(f'LinearShift time_range must be increasing, got {time_range}')
        value_range, time_range = py_numbers(value_range), py_numbers(time_range)
        super().__init__(attr, optimizer, init=value_range[0])
        self._value_range = value_range
        self._time_range = time_range

    def _value(self, t: int) -> float:
        (t1, t2), (v1, v2) = self._time_range, self._value_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (v2 - v1) * (t - t1) / (t2 - t1)
