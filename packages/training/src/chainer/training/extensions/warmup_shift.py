"""``WarmupShift``: ramp an optimizer hyperparameter up linearly at the start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.training.extensions._value_shift import _ValueShift
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer



class WarmupShift(_ValueShift):
    """Ramp ``optimizer.<attr>`` from ``warmup_start`` to ``init`` over ``warmup_iter`` calls.

    After ``t`` calls the value is
    ``warmup_start + (init - warmup_start) * t / warmup_iter`` while
    ``t < warmup_iter``, then ``init``.

    Args:
        attr: Name of the optimizer attribute.
        warmup_start: Value at the start of training.
        warmup_iter: Length of the ramp in calls (positive).
        init: Value reached at the end of the ramp.
        optimizer: The optimizer; the updater's ``'main'`` one when ``None``.

    Raises:
        ValueError: for a non-positive ``warmup_iter``.
    """

    def __init__(
        self, attr: str, warmup_start: float, warmup_iter: int, init: float,
        optimizer: Optimizer | None = None,
    ) -> None:
        if warmup_iter <= 0:
            raise ValueError(f'WarmupShift warmup_iter must be positive, got {warmup_iter}')
        super().__init__(attr, optimizer, init)
        self._warmup_start = py_number(warmup_start)
        self._warmup_iter = py_number(warmup_iter)

    def _value(self, t: int) -> float:
        if t >= self._warmup_iter:
            return self._init
        return self._warmup_start + (self._init - self._warmup_start) * t / self._warmup_iter
