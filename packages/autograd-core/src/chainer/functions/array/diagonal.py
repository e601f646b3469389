"""Diagonals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import axis_note, expect_noted
from chainer.functions.array._util import as_int
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Diagonal(FunctionNode):
    """The diagonal of the 2-D sub-arrays spanned by ``axis1`` and ``axis2``."""

    def __init__(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> None:
        self.offset = as_int(offset, 'offset')
        self.axis1 = as_int(axis1, 'axis1')
        self.axis2 = as_int(axis2, 'axis2')

    @property
    def label(self) -> str:
        return 'Diagonal'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x = in_types[0]
        ndim = type_check.eval(x.ndim)
        hi, lo = max(self.axis1, self.axis2), min(self.axis1, self.axis2)
        expect_noted(axis_note(hi, ndim, 'axis1' if hi == self.axis1 else 'axis2'), hi < x.ndim)
        expect_noted(axis_note(lo, ndim, 'axis1' if lo == self.axis1 else 'axis2'), -x.ndim <= lo)
        a1, a2 = self.axis1 % ndim, self.axis2 % ndim
        if a1 == a2:
            raise ValueError('axis1 and axis2 cannot be the same')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.ascontiguousarray(x.diagonal(self.offset, self.axis1, self.axis2)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return DiagonalGrad(self._in_shape, self.offset, self.axis1, self.axis2).apply(
            grad_outputs)


class DiagonalGrad(FunctionNode):
    """Write a diagonal into zeros of the input shape (the adjoint of Diagonal)."""

    def __init__(self, in_shape: tuple[int, ...], offset: int, axis1: int, axis2: int) -> None:
        self._in_shape = in_shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        ndim = len(self._in_shape)
        a1 = self.axis1 % ndim
        a2 = self.axis2 % ndim
        rest = [a for a in range(ndim) if a not in (a1, a2)]
        perm = rest + [a1, a2]
        gx_t = xp.zeros(tuple(self._in_shape[a] for a in perm), gy.dtype)
        n = gy.shape[-1]
        rows = xp.arange(n) + max(-self.offset, 0)
        cols = xp.arange(n) + max(self.offset, 0)
        gx_t[..., rows, cols] = gy
        inv = [0] * ndim
        for i, a in enumerate(perm):
            inv[a] = i
        return xp.ascontiguousarray(gx_t.transpose(inv)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return diagonal(gy, self.offset, self.axis1, self.axis2),


@guarded
def diagonal(x: VariableOrArray, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Variable:
    """Take the diagonal of ``x`` (like :func:`numpy.diagonal`).

    Args:
        x: input variable of at least two dimensions.
        offset: offset of the diagonal from the main one (positive: above).
        axis1, axis2: the axes of the 2-D sub-arrays.

    Returns:
        A variable whose last axis is the diagonal.

    Raises:
        chainer.utils.type_check.InvalidType: for ``x.ndim < 2`` or an axis
            out of range.
        ValueError: when ``axis1 == axis2``.
    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
