"""Inserting an axis of length one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import axis_note, expect_noted
from chainer.functions.array._util import as_int
from chainer.functions.array.reshape import reshape
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class ExpandDims(FunctionNode):
    """Insert an axis of length one at ``axis``."""

    def __init__(self, axis: int) -> None:
        self.axis = as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'ExpandDims'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x = in_types[0]
        axis = self.axis
        expect_noted(axis_note(axis, type_check.eval(x.ndim), extra=1),
                     x.ndim >= axis if axis >= 0 else x.ndim >= -axis - 1)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        return backend.get_array_module(x).expand_dims(x, self.axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        return reshape(gy, self._in_shape),


@guarded
def expand_dims(x: VariableOrArray, axis: int) -> Variable:
    """Insert an axis of length one into ``x`` (no copy).

    Args:
        x: input variable.
        axis: position of the new axis (``-x.ndim - 1 <= axis <= x.ndim``).

    Returns:
        A variable with one more dimension.

    Raises:
        chainer.utils.type_check.InvalidType: for an axis out of range.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([1, 2, 3], np.float32)
        >>> F.expand_dims(x, axis=0).shape
        (1, 3)
        >>> F.expand_dims(x, axis=1).shape
        (3, 1)
    """
    return ExpandDims(axis).apply((x,))[0]
