"""Hyperbolic tangent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs, retained_outputs
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class Tanh(FunctionNode):
    """Elementwise ``tanh(x)``."""

    _type_check_cache_attrs = ()

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).tanh(x)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, = retained_outputs(self)
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(FunctionNode):
    """``gy * (1 - y^2)`` as a function of ``(y, gy)``."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        y, gy = inputs
        return utils.force_array(gy * (1 - y * y), y.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, gy = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * gy * -2 * y)
            else:
                ret.append(g * (1 - y * y))
        return tuple(ret)


@guarded
def tanh(x: VariableOrArray) -> Variable:
    """Elementwise hyperbolic tangent.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([-1., 0., 1.], np.float32)
        >>> print(F.tanh(x).array)
        [-0.7615942  0.         0.7615942]
    """
    return Tanh().apply((x,))[0]
