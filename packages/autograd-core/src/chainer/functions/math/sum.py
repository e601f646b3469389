"""Sums: over axes, and down to a shape."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import check_axis_arg, expect_axis
from chainer.functions.array import broadcast as _broadcast  # each is the other's backward
from chainer.functions.array.reshape import reshape
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Sum(FunctionNode):
    """Sum over ``axis`` (all axes when None)."""

    keepdims = False
    _type_check_cache_attrs = ('axis',)

    def __init__(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> None:
        if axis is not None and type(axis) is not int:
            axis = check_axis_arg(axis)  # NumPy integers become ints; bad types refused
        self.axis = axis
        self.keepdims = keepdims

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')
        if self.axis is not None:

            for a in (self.axis if isinstance(self.axis, tuple) else (self.axis,)):
                expect_axis(in_types[0].ndim, a, negative='>')  # as v7 writes it

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        return utils.force_array(x.sum(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        ndim = len(self._in_shape)
        if not self.keepdims and self.axis is not None and ndim:
            axes = utils.normalize_axis_tuple(self.axis, ndim)
            shape = list(gy.shape)
            for a in axes:
                shape.insert(a, 1)
            gy = reshape(gy, tuple(shape))
        elif not self.keepdims and self.axis is None and ndim:
            gy = reshape(gy, (1,) * ndim)
        return _broadcast.broadcast_to(gy, self._in_shape),

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = grad_outputs
        ndim = len(self._in_shape)
        if not self.keepdims and ndim:
            if self.axis is None:
                shape: tuple[int, ...] = (1,) * ndim
            else:
                axes = utils.normalize_axis_tuple(self.axis, ndim)
                dims = list(gy.shape)
                for a in axes:
                    dims.insert(a, 1)
                shape = tuple(dims)
            gy = gy.reshape(shape)
        if gy.shape == self._in_shape:
            return gy,
        return backend.get_array_module(gy).broadcast_to(gy, self._in_shape),


@guarded
def sum(x: VariableOrArray, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Variable:
    """Sum the elements of ``x`` over ``axis``.

    Args:
        x: input variable.
        axis: None (all), an int or a tuple of ints.
        keepdims: keep the reduced axes with length one.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.sum(x).array
        array(15., dtype=float32)
        >>> print(F.sum(x, axis=0).array)
        [3. 5. 7.]
        >>> F.sum(x, axis=1, keepdims=True).shape
        (2, 1)
    """
    return Sum(axis, keepdims).apply((x,))[0]


class SumTo(FunctionNode):
    """Sum an array down to ``shape`` (the reverse of broadcasting)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self._shape = tuple(shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        return utils.force_array(utils.sum_to(x, self._shape)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return _broadcast.broadcast_to(gy, self._in_shape),


@guarded
def sum_to(x: VariableOrArray, shape: Sequence[int]) -> Variable:
    """Sum ``x`` over the broadcast axes so that it has ``shape``."""
    shape = tuple(shape)
    if isinstance(x, Variable) and x.shape == shape:
        return x
    return SumTo(shape).apply((x,))[0]
