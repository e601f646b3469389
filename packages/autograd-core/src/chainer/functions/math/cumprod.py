"""Cumulative product along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.functions._composite import CompositeNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.moveaxis import moveaxis
from chainer.functions.array.reshape import reshape
from chainer.functions.array.separate import separate
from chainer.functions.array.stack import stack
from chainer.functions.math._util import (
    AxisFunction,
    const,
    cumulative_axis,
    exclusive_matrix,
    mask_grad,
    move_axes_last,
    restore_axes,
)
from chainer.functions.math.cumsum import reverse_cumsum
from chainer.functions.math.sum import sum as _sum
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Cumprod(AxisFunction):
    """Cumulative product along ``axis``; exact gradients where ``x`` has zeros."""

    _name = 'cumprod'
    _label = 'Cumprod'

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cumprod(x, axis=self.axis), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        y, = retained_outputs(self)
        gy, = grad_outputs
        assert gy is not None
        axis = self.axis % x.ndim
        xa = x.array
        zero = xa == 0
        if not zero.any():
            return reverse_cumsum(gy * y, axis) / x,
        if not chainer.config.enable_backprop:
            return const(_grad_with_zeros(xa, y.array, gy.array, axis)),
        # Differentiable again: row i of an (n, n) matrix holds x with a one at i, so its
        # cumprod at k >= i is d y_k / d x_i; exact at every order whatever the zeros.
        axes = (axis,)
        xt, _ = move_axes_last(x, axes)
        gt, _ = move_axes_last(gy, axes)
        n = xt.shape[-1]
        xp = backend.get_array_module(xa)
        p = Cumprod(xt.ndim).apply((exclusive_matrix(xt),))[0]
        upper = xp.triu(xp.ones((n, n), dtype=bool))
        g2 = broadcast_to(reshape(gt, gt.shape[:-1] + (1, n)), p.shape)
        gx = _sum(mask_grad(g2 * p, upper), axis=-1)
        return restore_axes(gx, x.shape, axes),


def _grad_with_zeros(x: Any, y: Any, gy: Any, axis: int) -> Any:
    """The gradient of cumprod as arrays where ``x`` has zeros.

    Before the first zero of a row d y_k / d x_i = y_k / x_i; at the first zero it is the
    cumprod with that zero replaced by one; after it every product holds the zero.
    """
    xp = backend.get_array_module(x)
    zero = x == 0
    n_zero = xp.cumsum(zero, axis=axis)
    before = n_zero == 0
    first = zero & (n_zero == 1)
    one = x.dtype.type(1)

    def rev_cumsum(a: Any) -> Any:
        return xp.flip(xp.cumsum(xp.flip(a, axis), axis=axis), axis)

    g_before = rev_cumsum(gy * y) / xp.where(before, x, one)
    y_first = xp.cumprod(xp.where(first, one, x), axis=axis)
    g_first = rev_cumsum(gy * y_first)
    gx = xp.where(before, g_before, xp.where(first, g_first, x.dtype.type(0)))
    return utils.force_array(gx, x.dtype)


@guarded
def cumprod(x: VariableOrArray, axis: int | None = None) -> Variable:
    """Cumulative product of the elements of ``x`` along ``axis``.

    Args:
        x: input variable of a float dtype.
        axis: an int, or None for the flattened array (the result is 1-D).

    Returns:
        A variable of the shape of ``x`` (1-D when ``axis`` is None).

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
    """
    x, axis = cumulative_axis(x, axis)
    return Cumprod(axis).apply((x,))[0]


class Cumprodsum(CompositeNode):
    """The linear recurrence ``y_0 = b_0``, ``y_i = a_i * y_(i-1) + b_i`` along ``axis``.

    Applied to ``(a, b)`` of one shape (the cumulative product-sum: with ``b`` zero but
    for its first entry it is a cumulative product, with ``a`` all ones a cumulative
    sum). Differentiable in both inputs, to any order.

    Args:
        axis: the axis of the recurrence.
    """

    def __init__(self, axis: int) -> None:
        self.axis = axis

    @property
    def label(self) -> str:
        return 'Cumprodsum'

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:

        a, b = xs
        if a.shape[self.axis] == 0:
            return b * 1,
        a_rows = separate(moveaxis(a, self.axis, 0), 0)
        b_rows = separate(moveaxis(b, self.axis, 0), 0)
        ys = [b_rows[0]]
        for a_i, b_i in zip(a_rows[1:], b_rows[1:]):
            ys.append(a_i * ys[-1] + b_i)
        return moveaxis(stack(ys, 0), 0, self.axis),
