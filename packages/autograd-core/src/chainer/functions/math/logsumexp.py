"""Log of the sum of exponentials, computed without overflow."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.math._util import (
    AxisFunction,
    broadcast_grad,
    check_axis_arg,
    expand_reduced,
)
from chainer.functions.math.exponential import exp
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class LogSumExp(AxisFunction):
    """``log(sum(exp(x), axis))`` with the maximum factored out."""

    _name = 'logsumexp'
    _label = 'LogSumExp'

    def __init__(self, axis: int | tuple[int, ...] | None = None) -> None:
        self.axis = check_axis_arg(axis)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        if any(x.shape[a] == 0 for a in axes):
            shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
            return xp.full(shape, -xp.inf, dtype=x.dtype),
        m = x.max(axis=axes, keepdims=True)
        m = xp.where(xp.isfinite(m), m, m.dtype.type(0))
        s = xp.exp(x - m).sum(axis=axes, keepdims=True)
        with numpy.errstate(divide='ignore'):  # all -inf: log(0) = -inf is the answer
            y = xp.log(s) + m
        return utils.force_array(y.reshape(tuple(
            d for i, d in enumerate(x.shape) if i not in axes)), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, = retained_inputs(self)
        y, = retained_outputs(self)
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        gy = broadcast_grad(expand_reduced(grad_outputs[0], x.shape, axes, False), x.shape)
        y = broadcast_grad(expand_reduced(y, x.shape, axes, False), x.shape)
        return gy * exp(x - y),


@guarded
def logsumexp(x: VariableOrArray, axis: int | tuple[int, ...] | None = None) -> Variable:
    """``log(sum(exp(x)))`` over ``axis``, stable for large and small inputs.

    .. math:: y_i = \\log\\left(\\sum_j \\exp(x_{ij})\\right)

    Args:
        x: input variable of a float dtype.
        axis: None (all axes), an int or a tuple of ints.

    Returns:
        The reduced variable (``-inf`` where the sum is empty).

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
    """
    return LogSumExp(axis).apply((x,))[0]
