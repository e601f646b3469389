"""``MultistepShift``: multiply an optimizer hyperparameter by ``gamma`` at given calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _ValueShift
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class MultistepShift(_ValueShift):
    """Set ``optimizer.<attr>`` to ``init * gamma ** k``, ``k`` the step values reached.

    After ``t`` calls, ``k`` is the number of entries of ``step_value`` that
    are ``<= t``.

    Args:
        attr: Name of the optimizer attribute.
        gamma: Factor applied at each step value.
        step_value: Call counts at which the value changes.
        init: Initial value.
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.
    """

    def __init__(
        self, attr: str, gamma: float, step_value: Sequence[int], init: float,
        optimizer: Optimizer | None = None,
    ) -> None:
        super().__init__(attr, optimizer, init)
        self._gamma = py_number(gamma)
        self._step_value = sorted(py_number(s) for s in step_value)

    def _value(self, t: int) -> float:
        reached = sum(1 for s in self._step_value if s <= t)
        return self._init * self._gamma ** reached
