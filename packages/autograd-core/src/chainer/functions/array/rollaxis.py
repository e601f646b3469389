"""Rolling an axis to a position."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.function_node import FunctionNode
from chainer.functions.array._util import as_int, check_axis
from chainer.utils import type_check
from chainer.variable import Variable


class Rollaxis(FunctionNode):
    """Roll ``axis`` backwards until it lies at position ``start`` (a view)."""

    def __init__(self, axis: int, start: int = 0) -> None:
        self.axis = as_int(axis, 'axis')
        self.start = as_int(start, 'start')

    @property
    def label(self) -> str:
        return 'Rollaxis'

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x',))
        ndim = type_check.eval(in_types[0].ndim)
        check_axis(self.axis, ndim)
        if not -ndim <= self.start <= ndim:
            raise type_check.InvalidType(f'{-ndim} <= start <= {ndim}', f'start = {self.start}',
                                         f'start {self.start} is out of bounds for an input '
                                         f'of {ndim} dimension(s)')

    def forward(self, inputs: Any) -> Any:
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

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.array.transpose import transpose

        return transpose(grad_outputs[0], tuple(numpy.argsort(self._perm).tolist())),


def rollaxis(x: Any, axis: int, start: int = 0) -> Variable:
    """Roll the axis ``axis`` of ``x`` backwards to the position ``start``.

    Same as :func:`numpy.rollaxis` (no copy).

    Raises:
        chainer.utils.type_check.InvalidType: for ``axis`` or ``start`` out of range.
    """
    return Rollaxis(axis, start).apply((x,))[0]
