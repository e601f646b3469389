"""Concatenation along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import axis_note, expect_noted
from chainer.functions.array import split_axis as _split_axis  # each is the other's backward
from chainer.functions.array._util import as_int, expect_inputs
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Concat(FunctionNode):
    """Concatenate arrays along ``axis``."""

    def __init__(self, axis: int = 1) -> None:
        self.axis = as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Concat'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n = expect_inputs(in_types, 'concat needs at least one input')
        x0 = in_types[0]
        ndim = type_check.eval(x0.ndim)
        # v7's two checks of the axis, as it writes them
        note = axis_note(self.axis, ndim)
        expect_noted(note, x0.ndim > type_check.make_variable(self.axis, 'axis'))
        expect_noted(note, -x0.ndim <= self.axis, self.axis < x0.ndim)
        axis = self.axis % ndim
        for i in range(1, n):
            xi = in_types[i]
            type_check.expect(x0.dtype == xi.dtype, x0.ndim == xi.ndim)
            for d in range(ndim):
                if d != axis:
                    type_check.expect(x0.shape[d] == xi.shape[d])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        axis = self.axis
        total = 0
        sections = []
        for x in inputs[:-1]:
            total += x.shape[axis]
            sections.append(total)
        self._sections = sections
        if len(inputs) == 1:
            return inputs[0].copy(),
        return backend.get_array_module(*inputs).concatenate(inputs, axis=axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if len(self.inputs) == 1:
            return gy,
        gxs = _split_axis.split_axis(gy, self._sections, self.axis)
        return tuple(gxs[i] for i in indexes)


@guarded
def concat(xs: Sequence[VariableOrArray], axis: int = 1) -> Variable:
    """Concatenate variables along an axis.

    Args:
        xs: a tuple or list of variables/arrays of one dtype whose shapes agree
            except along ``axis``.
        axis: the axis to concatenate along (negative counts from the end).

    Returns:
        The concatenated variable.

    Raises:
        chainer.utils.type_check.InvalidType: on mismatched dtypes, ranks or shapes.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> a = np.array([[1, 2]], np.float32)
        >>> b = np.array([[3, 4], [5, 6]], np.float32)
        >>> print(F.concat((a, b), axis=0).array)
        [[1. 2.]
         [3. 4.]
         [5. 6.]]
        >>> F.concat((b, b), axis=1).shape
        (2, 4)
    """
    return Concat(axis).apply(tuple(xs))[0]
