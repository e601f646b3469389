"""Logarithm of the softmax along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs, sum_keepdims
from chainer.functions.activation.softmax import _check_axis
from chainer.functions.math.exponential import exp
from chainer.functions.math.sum import sum as _sum
from chainer.utils import numeric_args
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


def _log_softmax_array(x: Any, axis: int) -> Any:
    xp = backend.get_array_module(x)
    if x.size == 0:
        return x.copy()
    y = x - x.max(axis=axis, keepdims=True)
    y -= xp.log(sum_keepdims(xp.exp(y), axis))
    return y


class LogSoftmax(FunctionNode):
    """``x - logsumexp(x)`` along ``axis`` (no underflow, unlike ``log(softmax(x))``)."""

    _type_check_cache_attrs = ('axis',)

    def __init__(self, axis: int = 1) -> None:
        self.axis = axis if type(axis) is int else numeric_args.as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'LogSoftmax'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        _check_axis(in_types, self.axis)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        return utils.force_array(_log_softmax_array(inputs[0], self.axis)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, = retained_outputs(self)
        return _LogSoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _LogSoftmaxGrad(FunctionNode):
    """``gx = gy - exp(y) * sum(gy)`` as a function of ``(y, gy)``."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        y, gy = inputs
        xp = backend.get_array_module(y)
        if gy.size == 0:
            return gy.copy(),
        return utils.force_array(gy - xp.exp(y) * sum_keepdims(gy, self.axis)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        y, gy = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        ge = g * exp(y)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(-ge * _sum(gy, axis=self.axis, keepdims=True))
            else:
                ret.append(g - _sum(ge, axis=self.axis, keepdims=True))
        return tuple(ret)


@guarded
def log_softmax(x: VariableOrArray, axis: int = 1) -> Variable:
    """Logarithm of the softmax along ``axis``: ``x - log(sum(exp(x)))``.

    Equivalent to ``log(softmax(x, axis))`` but computed stably (it does not
    underflow to ``-inf`` where the softmax is tiny).

    Args:
        x: input variable or array of a float dtype.
        axis: the axis of the softmax.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float ``x`` or an
            ``axis`` out of range.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[0., 1., 2.]], np.float32)
        >>> y = F.log_softmax(x)
        >>> print(y.array)
        [[-2.4076061 -1.407606  -0.407606 ]]
        >>> np.allclose(np.exp(y.array).sum(), 1)
        True
    """
    return LogSoftmax(axis).apply((x,))[0]


#: v7's name of the log-softmax gradient node: ``LogSoftmaxGrad(axis).apply((y, gy))``.
LogSoftmaxGrad = _LogSoftmaxGrad


def logsumexp(x: NdArray, axis: int) -> NdArray:
    """``log(sum(exp(x), axis))`` of an array, computed stably, keeping ``axis`` (size 1).

    An array helper (no graph), as in Chainer v7.

    Args:
        x: a NumPy or CuPy array.
        axis: the axis to reduce.

    Returns:
        An array of ``x``'s dtype with ``axis`` kept as size 1.
    """
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    s = sum_keepdims(xp.exp(x - m), axis)
    return utils.force_array(m + xp.log(s), x.dtype)


def _log_softmax(x: Any, axis: int = 1) -> Any:
    """Log-softmax of an array along ``axis`` (no graph); code outside Chainer uses it."""
    return utils.force_array(_log_softmax_array(x, axis), x.dtype)
