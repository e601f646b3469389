"""Swapping two axes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import as_int, check_axis
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Swapaxes(FunctionNode):
    """Interchange two axes of an array (a view)."""

    def __init__(self, axis1: int, axis2: int) -> None:
        self.axis1 = as_int(axis1, 'axis1')
        self.axis2 = as_int(axis2, 'axis2')

    @property
    def label(self) -> str:
        return 'Swapaxes'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        ndim = type_check.eval(in_types[0].ndim)
        check_axis(self.axis1, ndim, 'axis1')
        check_axis(self.axis2, ndim, 'axis2')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return inputs[0].swapaxes(self.axis1, self.axis2),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return Swapaxes(self.axis1, self.axis2).apply(grad_outputs)


@guarded
def swapaxes(x: VariableOrArray, axis1: int, axis2: int) -> Variable:
    """Swap the axes ``axis1`` and ``axis2`` of ``x`` (no copy).

    Raises:
        chainer.utils.type_check.InvalidType: for an axis out of range.
    """
    return Swapaxes(axis1, axis2).apply((x,))[0]
