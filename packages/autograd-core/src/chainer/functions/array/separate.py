"""Separating an array into its slices along an axis."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_axis
from chainer.functions.array import stack as _stack  # each is the other's backward
from chainer.functions.array._util import as_int, fill_grads
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


class Separate(FunctionNode):
    """The slices ``x[..., i, ...]`` along ``axis`` (views of the input)."""

    def __init__(self, axis: int = 0) -> None:
        self.axis = as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Separate'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        expect_axis(in_types[0].ndim, self.axis)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        self._axis = self.axis % x.ndim
        xt = xp.moveaxis(x, self._axis, 0)
        self._shape = xt.shape[1:]
        self._dtype = x.dtype
        return tuple(xt[i, ...] for i in range(xt.shape[0]))

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gys = fill_grads(grad_outputs, itertools.repeat(self._shape), self._dtype)
        return (None,) if gys is None else (_stack.stack(gys, self._axis),)


@guarded
def separate(x: VariableOrArray, axis: int = 0) -> tuple[Variable, ...]:
    """Separate ``x`` into its slices along ``axis`` (the inverse of :func:`stack`).

    Args:
        x: input variable (at least one dimension).
        axis: the axis to separate along.

    Returns:
        A tuple of ``x.shape[axis]`` variables, each with that axis removed.

    Raises:
        chainer.utils.type_check.InvalidType: for an axis out of range.
    """
    return Separate(axis).apply((x,))
