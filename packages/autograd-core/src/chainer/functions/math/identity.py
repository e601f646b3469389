"""Identity function."""

from __future__ import annotations

from typing import TYPE_CHECKING, overload

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


class Identity(FunctionNode):
    """Return the inputs unchanged (as new variables in the graph)."""

    @property
    def label(self) -> str:
        return 'Identity'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return tuple(inputs)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return tuple(grad_outputs[i] for i in indexes)


@overload
def identity(x: VariableOrArray, /) -> Variable: ...


@overload
def identity(x0: VariableOrArray, x1: VariableOrArray, /,
             *inputs: VariableOrArray) -> tuple[Variable, ...]: ...


@guarded
def identity(*inputs: VariableOrArray) -> Variable | tuple[Variable, ...]:
    """Pass the inputs through unchanged.

    Args:
        inputs: variables or arrays.

    Returns:
        A variable for one input, or a tuple of variables for several.
    """
    ret = Identity().apply(inputs)
    return ret[0] if len(ret) == 1 else ret
