"""Product over axes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.math._util import (
    AxisFunction,
    broadcast_grad,
    check_axis_arg,
    const,
    exclusive_matrix,
    expand_reduced,
    move_axes_last,
    restore_axes,
)
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Prod(AxisFunction):
    """Product over ``axis``; exact gradients where ``x`` has zeros."""

    _name = 'prod'
    _label = 'Prod'

    def __init__(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> None:
        self.axis = check_axis_arg(axis)
        self.keepdims = keepdims

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        xp = backend.get_array_module(x)
        return utils.force_array(xp.prod(x, axis=axes, keepdims=self.keepdims), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        y, = retained_outputs(self)
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        gy = broadcast_grad(expand_reduced(grad_outputs[0], x.shape, axes, self.keepdims),
                            x.shape)
        xa = x.array
        zero = xa == 0
        if not zero.any():
            y = broadcast_grad(expand_reduced(y, x.shape, axes, self.keepdims), x.shape)
            return gy * y / x,
        if not chainer.config.enable_backprop:
            # Values only: where a group has no zero the product of the others is y / x;
            # where it has, only its first zero gets the product with that zero set to one.
            xp = backend.get_array_module(xa)
            first, has_zero = _first_zero(zero, axes)
            p = xp.prod(xp.where(first, xa.dtype.type(1), xa), axis=axes, keepdims=True)
            ya = expand_reduced(y.array, x.shape, axes, self.keepdims)
            others = xp.where(has_zero, xp.where(first, p, xa.dtype.type(0)),
                              ya / xp.where(zero, xa.dtype.type(1), xa))
            return gy * const(utils.force_array(others, xa.dtype)),
        # Differentiable again: the product of the others as a product over rows of an
        # (n, n) matrix per group, exact at every order whatever the zeros.
        xt, _ = move_axes_last(x, axes)
        others = Prod(-1).apply((exclusive_matrix(xt),))[0]
        return gy * restore_axes(others, x.shape, axes),


def _first_zero(zero: Any, axes: tuple[int, ...]) -> tuple[Any, Any]:
    """Mask of the first zero (in C order over ``axes``) of each group, and where a group
    has any zero (broadcast to the full shape)."""
    xp = backend.get_array_module(zero)
    ndim = zero.ndim
    rest = tuple(a for a in range(ndim) if a not in axes)
    perm = rest + axes
    zt = zero.transpose(perm)
    outer = zt.shape[:len(rest)]
    flat = zt.reshape(outer + (-1,))
    count = xp.cumsum(flat, axis=-1)
    first = (flat & (count == 1)).reshape(zt.shape)
    has = xp.broadcast_to(count[..., -1:] > 0, flat.shape).reshape(zt.shape)
    inv = tuple(perm.index(a) for a in range(ndim))
    return first.transpose(inv), has.transpose(inv)


@guarded
def prod(x: VariableOrArray, axis: int | tuple[int, ...] | None = None,
         keepdims: bool = False) -> Variable:
    """Product of the elements of ``x`` over ``axis``.

    Args:
        x: input variable of a float dtype.
        axis: None (all axes), an int or a tuple of ints.
        keepdims: keep the reduced axes with length one.

    Returns:
        The reduced variable.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
    """
    return Prod(axis, keepdims).apply((x,))[0]
