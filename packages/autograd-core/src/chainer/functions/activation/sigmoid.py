"""Logistic sigmoid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs, retained_outputs
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp
    from chainer.utils.type_check import TypeInfoTuple


def sigmoid_array(x: NdArray, xp: Xp) -> NdArray:
    """``1 / (1 + exp(-x))`` on an array of module ``xp`` (without overflow)."""
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


class Sigmoid(FunctionNode):
    """``1 / (1 + exp(-x))``, computed as ``tanh(x / 2) / 2 + 1 / 2`` (no overflow)."""

    _type_check_cache_attrs = ()

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(sigmoid_array(x, backend.get_array_module(x))),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, = retained_outputs(self)
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(FunctionNode):
    """``gy * y * (1 - y)`` as a function of ``(y, gy)``."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        y, gy = inputs
        one = y.dtype.type(1)   # a typed 1: NumPy 1.x would widen 1 - y on 0-dim arrays
        return utils.force_array(gy * y * (one - y), y.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, gy = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * gy * (1 - 2 * y))
            else:
                ret.append(g * y * (1 - y))
        return tuple(ret)


@guarded
def sigmoid(x: VariableOrArray) -> Variable:
    """Elementwise logistic sigmoid ``1 / (1 + exp(-x))``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([-2., 0., 2.], np.float32)
        >>> print(F.sigmoid(x).array)
        [0.11920291 0.5        0.8807971 ]
    """
    return Sigmoid().apply((x,))[0]
