"""Softplus: a smooth rectifier."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class Softplus(FunctionNode):
    """``log(1 + exp(beta x)) / beta``, computed without overflow."""

    _type_check_cache_attrs = ()

    def __init__(self, beta: float = 1.0) -> None:
        self.beta = float(beta)
        if self.beta == 0:
            raise ValueError('beta must not be zero')

    @property
    def label(self) -> str:
        return 'Softplus'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        bx = x * x.dtype.type(self.beta)
        # log(1 + exp(t)) = max(t, 0) + log1p(exp(-|t|))
        y = xp.maximum(bx, 0) + xp.log1p(xp.exp(-xp.abs(bx)))
        if self.beta != 1:
            y *= x.dtype.type(1 / self.beta)
        return utils.force_array(y, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        return _SoftplusGrad(self.beta).apply((x, grad_outputs[0]))


class _SoftplusGrad(FunctionNode):
    """``gy * sigmoid(beta x)`` as a function of ``(x, gy)``."""

    def __init__(self, beta: float) -> None:
        self.beta = beta

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, gy = inputs
        bx = x * x.dtype.type(self.beta)
        return utils.force_array(gy * sigmoid_array(bx, backend.get_array_module(bx))),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, gy = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        s = sigmoid(x * self.beta)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * gy * s * (1 - s) * self.beta)
            else:
                ret.append(g * s)
        return tuple(ret)


@guarded
def softplus(x: VariableOrArray, beta: float = 1.0) -> Variable:
    """Softplus: ``log(1 + exp(beta * x)) / beta``, a smooth approximation of ReLU.

    Args:
        x: input variable or array of a float dtype.
        beta: the sharpness (non-zero); larger values approach ReLU.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        ValueError: when ``beta`` is zero.
    """
    return Softplus(beta).apply((x,))[0]


#: v7's name of the softplus gradient node: ``SoftplusGrad(beta).apply((x, gy))``.
SoftplusGrad = _SoftplusGrad
