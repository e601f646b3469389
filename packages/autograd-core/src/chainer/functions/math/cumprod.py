"""Cumulative product along an axis."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import (
    check_axis_arg,
    const,
    expect_axis,
    expect_float,
    mask_grad,
)
from chainer.variable import Variable, as_variable


class Cumprod(FunctionNode):
    """Cumulative product along ``axis``; exact gradients where ``x`` has zeros."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    @property
    def label(self) -> str:
        return 'cumprod'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)
        expect_axis(in_types[0], self.axis)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cumprod(x, axis=self.axis), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.cumsum import reverse_cumsum

        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        axis = self.axis % x.ndim
        xa = x.array
        zero = xa == 0
        if not zero.any():
            return reverse_cumsum(gy * y, axis) / x,
        # Before the first zero of a row, d y_k / d x_i = y_k / x_i holds exactly; at the
        # first zero it is the product of the others, i.e. the cumprod with that zero
        # replaced by one; after it every product holds the zero.
        xp = backend.get_array_module(xa)
        n_zero = xp.cumsum(zero, axis=axis)
        before = n_zero == 0
        first = zero & (n_zero == 1)
        dtype = xa.dtype
        x_safe = mask_grad(x, before) + const((~before).astype(dtype))
        g_before = mask_grad(reverse_cumsum(gy * y, axis) / x_safe, before)
        x_first = mask_grad(x, ~first) + const(first.astype(dtype))
        y_first = Cumprod(axis).apply((x_first,))[0]
        g_first = mask_grad(reverse_cumsum(gy * y_first, axis), first)
        return g_before + g_first,


def cumprod(x: Any, axis: Any = None) -> Variable:
    """Cumulative product of the elements of ``x`` along ``axis``.

    Args:
        x: input variable of a float dtype.
        axis: an int, or None for the flattened array (the result is 1-D).

    Returns:
        A variable of the shape of ``x`` (1-D when ``axis`` is None).

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
    """
    from chainer.functions.array.reshape import reshape

    axis = check_axis_arg(axis, allow_tuple=False)
    if axis is None:
        x = reshape(as_variable(x), (-1,))
        axis = 0
    return Cumprod(axis).apply((x,))[0]
