"""Repeating elements."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import as_int, as_int_tuple, check_axis, index_add
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _as_repeats(repeats: Any) -> tuple[int, ...]:
    """``repeats`` as a tuple of ints; booleans count as 0 and 1, as in NumPy."""
    if isinstance(repeats, (bool, numpy.bool_)):
        return (int(repeats),)
    if isinstance(repeats, (tuple, list)):
        repeats = [int(r) if isinstance(r, (bool, numpy.bool_)) else r for r in repeats]
    return as_int_tuple(repeats, 'repeats')


def _check_axis_and_repeats(repeats: tuple[int, ...], axis: int | None, shape: Any) -> None:
    ndim = len(shape)
    if axis is None:
        n = int(numpy.prod(shape))
    else:
        axis = check_axis(axis, ndim)
        n = shape[axis]
    if len(repeats) not in (1, n):
        raise ValueError(f'repeats has {len(repeats)} entries, but the repeated axis has '
                         f'length {n}')


class Repeat(FunctionNode):
    """Repeat each element ``repeats`` times along ``axis`` (of the flat array when None)."""

    def __init__(self, repeats: int | Sequence[int], axis: int | None = None) -> None:
        self.repeats = _as_repeats(repeats)
        if any(r < 0 for r in self.repeats):
            raise ValueError(f'repeats must be non-negative, not {self.repeats}')
        self.axis = None if axis is None else as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Repeat'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        _check_axis_and_repeats(self.repeats, self.axis, type_check.eval(in_types[0].shape))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        reps = self.repeats[0] if len(self.repeats) == 1 else list(self.repeats)
        return xp.repeat(x, reps, axis=self.axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return RepeatGrad(self.repeats, self.axis, self._in_shape).apply(grad_outputs)


class RepeatGrad(FunctionNode):
    """Sum the repeated copies back (the adjoint of Repeat)."""

    def __init__(self, repeats: tuple[int, ...], axis: int | None,
                 in_shape: tuple[int, ...]) -> None:
        self.repeats = repeats
        self.axis = axis
        self._in_shape = in_shape

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        shape: tuple[int, ...]
        if self.axis is None:
            shape = (int(numpy.prod(self._in_shape)),)
            axis = 0
        else:
            shape = self._in_shape
            axis = self.axis % len(shape)
        n = shape[axis]
        g = xp.moveaxis(gy, axis, 0)
        rest = g.shape[1:]
        if len(self.repeats) == 1 or len(set(self.repeats)) == 1:
            r = self.repeats[0] if self.repeats else 0
            gx = g.reshape((n, r) + rest).sum(axis=1)
        else:
            gx = xp.zeros((n,) + rest, gy.dtype)
            idx = xp.asarray(numpy.repeat(numpy.arange(n), self.repeats))
            index_add(gx, idx, g)
        gx = xp.moveaxis(gx, 0, axis)
        return xp.ascontiguousarray(gx.astype(gy.dtype, copy=False)).reshape(self._in_shape),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return repeat(gy, self.repeats, self.axis),


@guarded
def repeat(x: VariableOrArray, repeats: int | Sequence[int], axis: int | None = None) -> Variable:
    """Repeat the elements of ``x`` (like :func:`numpy.repeat`).

    Args:
        x: input variable.
        repeats: an int, or a sequence of non-negative ints (one per element
            along ``axis``, or a single one for all); booleans count as 0 and 1.
        axis: the axis along which to repeat; None repeats the flattened input.

    Returns:
        The variable with repeated elements; its gradient sums the copies.

    Raises:
        ValueError: for negative repeats or a repeats sequence of the wrong length.
        chainer.utils.type_check.InvalidType: for an axis out of range.
    """
    return Repeat(repeats, axis).apply((x,))[0]
