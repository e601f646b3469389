"""Reversing the order of elements along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_axis
from chainer.functions.array._util import as_int
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _flip(array: Any, axis: int) -> Any:
    """The view of ``array`` with the order of its elements along ``axis`` reversed."""
    index = [slice(None)] * array.ndim
    index[axis] = slice(None, None, -1)
    return array[tuple(index)]


class Flip(FunctionNode):
    """Reverse the elements along ``axis`` (a view)."""

    def __init__(self, axis: int) -> None:
        self.axis = as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Flip'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x = in_types[0]
        type_check.expect(x.ndim > 0)  # v7's order of checks
        expect_axis(x.ndim, self.axis)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return _flip(x, self.axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return Flip(self.axis).apply(grad_outputs)


class _FlipFixedAxis(Flip):
    """A :class:`Flip` of the class's ``fixed_axis``, labelled with the class name, as
    v7's FlipLR/FlipUD: its input is named ``a`` and needs more than ``fixed_axis`` axes."""

    fixed_axis = 0

    def __init__(self) -> None:
        super().__init__(self.fixed_axis)

    @property
    def label(self) -> str:
        return type(self).__name__

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # as v7 writes it (v7 also took floating-point inputs only; any dtype is taken here)
        type_check.argname(in_types, ('a',))
        type_check.expect(in_types[0].ndim >= self.fixed_axis + 1)


@guarded
def flip(x: VariableOrArray, axis: int) -> Variable:
    """Reverse the order of the elements of ``x`` along ``axis``.

    Raises:
        chainer.utils.type_check.InvalidType: for an axis out of range.
    """
    return Flip(axis).apply((x,))[0]

