"""Stacking along a new axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import axis_note, expect_noted
from chainer.functions.array import separate as _separate  # each is the other's backward
from chainer.functions.array._util import as_int, expect_inputs
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Stack(FunctionNode):
    """Join arrays of one shape along a new axis."""

    def __init__(self, axis: int = 0) -> None:
        self.axis = as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Stack'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n = expect_inputs(in_types, 'stack needs at least one input')
        x0 = in_types[0]
        # as v7 writes it: the new axis's range, then each input against the first
        expect_noted(axis_note(self.axis, type_check.eval(x0.ndim), extra=1),
                     -x0.ndim - 1 <= self.axis, self.axis <= x0.ndim)
        for i in range(1, n):
            xi = in_types[i]
            type_check.expect(xi.dtype == x0.dtype, xi.shape == x0.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        xp = backend.get_array_module(*inputs)
        return xp.stack(inputs, axis=self.axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        gxs = _separate.separate(gy, self.axis)
        return tuple(gxs[i] for i in indexes)


@guarded
def stack(xs: Sequence[VariableOrArray], axis: int = 0) -> Variable:
    """Stack variables of one shape along a new axis.

    Args:
        xs: a tuple or list of variables/arrays with the same shape and dtype.
        axis: position of the new axis in the result (``-ndim - 1 <= axis <= ndim``).

    Returns:
        A variable with one more dimension than the inputs.

    Raises:
        chainer.utils.type_check.InvalidType: on mismatched shapes or dtypes,
            or an axis out of range.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> a = np.array([1, 2, 3], np.float32)
        >>> b = np.array([4, 5, 6], np.float32)
        >>> print(F.stack((a, b)).array)
        [[1. 2. 3.]
         [4. 5. 6.]]
        >>> F.stack((a, b), axis=1).shape
        (3, 2)
    """
    return Stack(axis).apply(tuple(xs))[0]
