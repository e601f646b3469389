"""Softmax along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs, retained_outputs, sum_keepdims
from chainer.functions.math.sum import sum as _sum
from chainer.utils import numeric_args, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _check_axis(in_types: Any, axis: int) -> None:
    expect_float(in_types)
    x_type, = in_types
    ndim = type_check.eval(x_type.ndim)
    if not -ndim <= axis < ndim:
        raise type_check.InvalidType(f'axis {axis} within the {ndim} axes of x', f'axis {axis}',
                                     f'axis {axis} is out of bounds for x of ndim {ndim}')


def _softmax_array(x: Any, axis: int) -> Any:
    xp = backend.get_array_module(x)
    if x.size == 0:
        return x.copy()
    y = x - x.max(axis=axis, keepdims=True)
    xp.exp(y, out=y)
    y /= sum_keepdims(y, axis)
    return y


class Softmax(FunctionNode):
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the max for stability."""

    _type_check_cache_attrs = ('axis',)

    def __init__(self, axis: int = 1) -> None:
        self.axis = axis if type(axis) is int else numeric_args.as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Softmax'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        _check_axis(in_types, self.axis)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        return utils.force_array(_softmax_array(inputs[0], self.axis)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, = retained_outputs(self)
        return _SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _SoftmaxGrad(FunctionNode):
    """``gx = y * gy - y * sum(y * gy)`` as a function of ``(y, gy)``."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        y, gy = inputs
        gx = y * gy
        if gx.size:
            gx -= y * sum_keepdims(gx, self.axis)
        return utils.force_array(gx),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        y, gy = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        ret = []
        for i in indexes:
            if i == 0:
                s = _sum(y * gy, axis=self.axis, keepdims=True)
                t = _sum(g * y, axis=self.axis, keepdims=True)
                ret.append(g * gy - g * s - t * gy)
            else:
                ret.append(_SoftmaxGrad(self.axis).apply((y, g))[0])
        return tuple(ret)


@guarded
def softmax(x: VariableOrArray, axis: int = 1) -> Variable:
    """Softmax along ``axis``: ``exp(x_k) / sum_j exp(x_j)``.

    The input is shifted by its maximum along ``axis`` first, so large inputs do
    not overflow.

    Args:
        x: input variable or array of a float dtype, with at least ``axis + 1`` axes.
        axis: the axis along which the probabilities sum to one.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float ``x`` or an
            ``axis`` out of range.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[0., 1., 2.], [1., 1., 1.]], np.float32)
        >>> y = F.softmax(x)
        >>> print(y.array)
        [[0.09003057 0.24472846 0.66524094]
         [0.33333334 0.33333334 0.33333334]]
        >>> print(y.array.sum(axis=1))
        [1. 1.]
    """
    return Softmax(axis).apply((x,))[0]
