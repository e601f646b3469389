"""Splitting along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import check_size, expect_axis
from chainer.functions.array import concat as _concat  # each is the other's backward
from chainer.functions.array._util import as_int, as_int_tuple, fill_grads
from chainer.utils import numeric_args, type_check

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


_MAX_EMPTY_SECTIONS = 2**16  # an empty axis splits into this many empty pieces at most


class SplitAxis(FunctionNode):
    """Split an array into several along ``axis`` (views of the input)."""

    def __init__(self, indices_or_sections: int | Sequence[int] | NdArray, axis: int) -> None:
        self.axis = as_int(axis, 'axis')
        if numeric_args.is_int(indices_or_sections):  # also a NumPy or 0-d integer
            sections = check_size(indices_or_sections, 'indices_or_sections', minimum=1)
            self.sections: int | None = sections
            self.indices: tuple[int, ...] | None = None
        else:
            spec = indices_or_sections
            if hasattr(spec, 'ndim'):
                spec = backend.CpuDevice().send_array(spec).ravel().tolist()
            indices = as_int_tuple(spec, 'indices_or_sections')
            prev = 0
            for i in indices:
                if i < prev:
                    raise ValueError('indices_or_sections must be non-negative and '
                                     f'non-decreasing, not {list(indices)}')
                prev = i
            self.sections = None
            self.indices = indices

    @property
    def label(self) -> str:
        return 'SplitAxis'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # as v7 writes it: the input unnamed, the axis as given
        type_check.expect(in_types.size() == 1)
        x = in_types[0]
        expect_axis(x.ndim, self.axis)
        axis = self.axis
        if self.sections is not None:
            sections = type_check.make_variable(self.sections, 'sections')
            type_check.expect(x.shape[axis] % sections == 0)
        elif self.indices:
            last = type_check.make_variable(self.indices[-1], 'max_index')
            type_check.expect(x.shape[axis] >= last)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        axis = self.axis % x.ndim
        n = x.shape[axis]
        if self.sections is not None:
            sections = self.sections
            if n % sections or (n == 0 and sections > _MAX_EMPTY_SECTIONS):
                raise ValueError(f'an axis of length {n} cannot be split into '
                                 f'{sections} equal sections (indices_or_sections)')
            step = n // sections
            points = [step * i for i in range(1, sections)]
        else:
            points = [min(i, n) for i in self.indices or ()]
        lead = (slice(None),) * axis
        ys = []
        start = 0
        for stop in points + [n]:
            ys.append(x[lead + (slice(start, stop),)])
            start = stop
        self._out_shapes = [y.shape for y in ys]
        self._dtype = x.dtype
        return tuple(ys)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gys = fill_grads(grad_outputs, self._out_shapes, self._dtype)
        return (None,) if gys is None else (_concat.concat(gys, axis=self.axis),)


@overload
def split_axis(x: VariableOrArray, indices_or_sections: int | Sequence[int] | NdArray,
               axis: int, force_tuple: Literal[True] = ...) -> tuple[Variable, ...]: ...


@overload
def split_axis(x: VariableOrArray, indices_or_sections: int | Sequence[int] | NdArray,
               axis: int, force_tuple: bool = ...) -> Variable | tuple[Variable, ...]: ...


@guarded
def split_axis(x: VariableOrArray, indices_or_sections: int | Sequence[int] | NdArray,
               axis: int, force_tuple: bool = True) -> Variable | tuple[Variable, ...]:
    """Split ``x`` along ``axis``.

    Args:
        x: input variable.
        indices_or_sections: an int (the number of equal sections; it must
            divide the length of the axis) or a sequence of split points.
        axis: the axis to split.
        force_tuple: when False and there is a single piece, return it alone.

    Returns:
        A tuple of variables (or a single variable, see ``force_tuple``).

    Raises:
        chainer.utils.type_check.InvalidType: when the axis does not divide or
            the split points exceed its length.
        ValueError: for non-positive sections or decreasing split points.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> a, b = F.split_axis(x, [1], axis=1)
        >>> print(a.array)
        [[0.]
         [3.]]
        >>> print(b.array)
        [[1. 2.]
         [4. 5.]]
        >>> [y.shape for y in F.split_axis(x, 2, axis=0)]
        [(1, 3), (1, 3)]
    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if not force_tuple and len(ys) == 1:
        return ys[0]
    return ys
