"""Rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ReLU(FunctionNode):
    """``max(x, 0)`` elementwise."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'ReLU'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).maximum(x, 0, dtype=x.dtype)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y = self._retained_output_data[0]
        if not config.enable_backprop:
            g, = grad_outputs
            assert g is not None
            gy = g._data
            return Variable._new(utils.force_array(gy * (y > 0), gy.dtype), False),
        return ReLUGrad(y).apply(grad_outputs)


class ReLUGrad(FunctionNode):
    """``gy * (y > 0)``, with ``y`` held as a constant (so it is linear in ``gy``)."""

    def __init__(self, y: NdArray) -> None:
        self.y = y

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return utils.force_array(gy * (self.y > 0)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return ReLUGrad(self.y).apply(grad_outputs)


@guarded
def relu(x: VariableOrArray) -> Variable:
    """Rectified linear unit: ``max(x, 0)``.

    Args:
        x: input variable of a float dtype.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[-1., 0., 2.5]], np.float32)
        >>> y = F.relu(x)
        >>> y.array
        array([[0. , 0. , 2.5]], dtype=float32)
    """
    return ReLU().apply((x,))[0]


#: v7's name of the ReLU gradient node: ``ReLUGrad2(y).apply((gy,))`` gives ``gy * (y > 0)``.
ReLUGrad2 = ReLUGrad
#: v7's cuDNN variant of the ReLU gradient; one node serves every backend here.
ReLUGradCudnn = ReLUGrad
