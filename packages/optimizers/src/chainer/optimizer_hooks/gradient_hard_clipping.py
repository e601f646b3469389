"""GradientHardClipping: clip every gradient element into a range."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import UpdateRule
    from chainer.variable import Variable


class GradientHardClipping:
    """Clip each gradient element into ``[lower_bound, upper_bound]`` before the update.

    Args:
        lower_bound: the lower bound.
        upper_bound: the upper bound.

    Raises:
        ValueError: when ``lower_bound > upper_bound``.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound: float, upper_bound: float) -> None:
        if lower_bound > upper_bound:
            raise ValueError(
                f'lower_bound ({lower_bound}) must not exceed upper_bound ({upper_bound})')
        self.lower_bound = py_number(lower_bound)
        self.upper_bound = py_number(upper_bound)

    def __call__(self, rule: UpdateRule, param: Variable) -> None:
        """Clip the gradient of ``param`` in place (skipped without gradient)."""
        g = param.grad
        if g is None:
            return
        lower, upper = self.lower_bound, self.upper_bound
        scale = param._loss_scale
        if scale is not None:
            lower, upper = lower * scale, upper * scale
        backend.get_array_module(g).clip(g, lower, upper, out=g)
