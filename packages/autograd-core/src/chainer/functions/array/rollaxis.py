"""Rolling an axis to a position."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import axis_note, expect_axis, expect_noted
from chainer.functions.array._util import as_int
from chainer.functions.array.transpose import transpose
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Rollaxis(FunctionNode):
    """Roll ``axis`` backwards until it lies at position ``start`` (a view)."""

    def __init__(self, axis: int, start: int = 0) -> None:
        self.axis = as_int(axis, 'axis')
        self.start = as_int(start, 'start')

    @property
    def label(self) -> str:
        return 'Rollaxis'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x = in_types[0]
        expect_axis(x.ndim, self.axis, negative='>')
        start = self.start
        expect_noted(axis_note(start, type_check.eval(x.ndim), 'start', extra=1),
                     x.ndim >= start if start >= 0 else x.ndim > -start - 1)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        ndim = x.ndim
        axis = self.axis % ndim
        start = self.start + ndim if self.start < 0 else self.start
        if start > axis:
            start -= 1
        perm = [a for a in range(ndim) if a != axis]
        perm.insert(start, axis)
        self._perm = tuple(perm)
        return x.transpose(self._perm),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        return transpose(gy, tuple(numpy.argsort(self._perm).tolist())),


@guarded
def rollaxis(x: VariableOrArray, axis: int, start: int = 0) -> Variable:
    """Roll the axis ``axis`` of ``x`` backwards to the position ``start``.

    Same as :func:`numpy.rollaxis` (no copy).

    Raises:
        chainer.utils.type_check.InvalidType: for ``axis`` or ``start`` out of range.
    """
    return Rollaxis(axis, start).apply((x,))[0]
