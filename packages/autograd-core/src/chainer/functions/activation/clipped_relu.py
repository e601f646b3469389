"""Clipped rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import check_real, expect_float, retained_inputs
from chainer.functions.math._util import MaskGrad
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ClippedReLU(FunctionNode):
    """``min(max(0, x), z)`` elementwise."""

    _type_check_cache_attrs = ()

    def __init__(self, z: float) -> None:
        self.cap = check_real(z, 'z', positive=True)

    @property
    def label(self) -> str:
        return 'ClippedReLU'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.clip(x, 0, x.dtype.type(self.cap)).astype(x.dtype,
                                                                              copy=False)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0].array
        return MaskGrad((x > 0) & (x < self.cap)).apply(grad_outputs)


@guarded
def clipped_relu(x: VariableOrArray, z: float = 20.0) -> Variable:
    """Clipped rectifier: ``min(max(0, x), z)``.

    Args:
        x: input variable or array of a float dtype.
        z: the clipping value (positive).

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        ValueError: when ``z`` is not positive.
    """
    return ClippedReLU(z).apply((x,))[0]


class ClippedReLUGrad2(MaskGrad):
    """The gradient of :class:`ClippedReLU`: ``gy * (0 < x < z)``, applied to ``(gy,)``.

    Chainer v7 had this CPU node and :class:`ClippedReLUGrad3` for GPUs; here one node
    serves every backend.

    Args:
        x: the input array of the clipped ReLU.
        z: the clipping value.
    """

    def __init__(self, x: NdArray, z: float) -> None:
        super().__init__((x > 0) & (x < z))
        self.x = x
        self.cap = z


#: v7's GPU variant of :class:`ClippedReLUGrad2`; one node serves every backend here.
ClippedReLUGrad3 = ClippedReLUGrad2


def relu6(x: VariableOrArray) -> Variable:
    """Rectified linear unit clipped at 6: ``min(max(0, x), 6)``.

    Args:
        x: input variable or array of a float dtype.

    Returns:
        A variable of the shape and dtype of ``x``.
    """
    return ClippedReLU(6.0).apply((x,))[0]
