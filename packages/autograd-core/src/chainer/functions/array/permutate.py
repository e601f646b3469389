"""Permuting along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_axis
from chainer.functions.array._util import as_int
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Permutate(FunctionNode):
    """``y[i] = x[indices[i]]`` along ``axis`` (``y[indices[i]] = x[i]`` when inverted)."""

    def __init__(self, indices: VariableOrArray, axis: int = 0, inv: bool = False) -> None:
        self.indices = as_array(indices)
        self.axis = as_int(axis, 'axis')
        self.inv = bool(inv)

    @property
    def label(self) -> str:
        return 'Permutate'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x = in_types[0]
        ind = self.indices
        if getattr(ind, 'dtype', numpy.dtype('f')).kind not in 'iu' or ind.ndim != 1:
            raise type_check.InvalidType(
                'indices: a 1-D integer array', f'indices = {ind!r}',
                'indices must be a one-dimensional integer array')
        axis = expect_axis(x.ndim, self.axis)
        type_check.expect(x.shape[axis] == type_check.make_variable(len(ind), 'len(indices)'))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        xp = backend.get_array_module(x)
        ind = xp.asarray(self.indices)
        self.indices = ind
        n = ind.shape[0]
        if n and not bool((xp.sort(ind) == xp.arange(n, dtype=ind.dtype)).all()):
            raise ValueError('indices must be a permutation of 0, ..., n - 1')
        if self.inv:
            ind = xp.argsort(ind)
        return xp.take(x, ind, axis=self.axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return Permutate(self.indices, self.axis, not self.inv).apply(grad_outputs)


@guarded
def permutate(x: VariableOrArray, indices: VariableOrArray, axis: int = 0,
              inv: bool = False) -> Variable:
    """Permute ``x`` along ``axis``: ``y[i] = x[indices[i]]``.

    Args:
        x: input variable.
        indices: a permutation of ``0 .. x.shape[axis] - 1`` (integer array
            or variable).
        axis: the axis to permute.
        inv: apply the inverse permutation: ``y[indices[i]] = x[i]``.

    Returns:
        The permuted variable.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-integer or wrongly
            sized ``indices``, or an axis out of range.
        ValueError: when ``indices`` is not a permutation.
    """
    return Permutate(indices, axis, inv).apply((x,))[0]
