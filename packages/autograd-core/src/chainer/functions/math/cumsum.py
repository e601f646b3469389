"""Cumulative sum along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions.math._util import AxisFunction, cumulative_axis, flip
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Cumsum(AxisFunction):
    """Cumulative sum along ``axis``."""

    _name = 'cumsum'
    _label = 'Cumsum'

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cumsum(x, axis=self.axis), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return reverse_cumsum(gy, self.axis),


def reverse_cumsum(x: VariableOrArray, axis: int) -> Variable:
    """Cumulative sum from the end: ``y[i] = sum(x[i:])`` along ``axis`` (differentiable)."""
    axis %= x.ndim
    return flip(Cumsum(axis).apply((flip(x, axis),))[0], axis)


@guarded
def cumsum(x: VariableOrArray, axis: int | None = None) -> Variable:
    """Cumulative sum of the elements of ``x`` along ``axis``.

    Args:
        x: input variable of a float dtype.
        axis: an int, or None to sum over the flattened array (the result is 1-D).

    Returns:
        A variable of the shape of ``x`` (1-D when ``axis`` is None).

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
    """
    x, axis = cumulative_axis(x, axis)
    return Cumsum(axis).apply((x,))[0]
