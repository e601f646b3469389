"""Moving axes to new positions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_axis
from chainer.functions.array._util import as_int_tuple, check_axis
from chainer.functions.array.transpose import transpose
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Moveaxis(FunctionNode):
    """Move the ``source`` axes to the ``destination`` positions (a view)."""

    def __init__(self, source: int | Sequence[int], destination: int | Sequence[int]) -> None:
        self.source = as_int_tuple(source, 'source')
        self.destination = as_int_tuple(destination, 'destination')
        if len(self.source) != len(self.destination):
            raise ValueError('source and destination must have the same number of axes, '
                             f'not {len(self.source)} and {len(self.destination)}')

    @property
    def label(self) -> str:
        return 'Moveaxis'

    def _normalized(self, ndim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        src = tuple(check_axis(a, ndim, 'source') for a in self.source)
        dst = tuple(check_axis(a, ndim, 'destination') for a in self.destination)
        if len(set(src)) != len(src):
            raise ValueError(f'repeated axis in source: {self.source}')
        if len(set(dst)) != len(dst):
            raise ValueError(f'repeated axis in destination: {self.destination}')
        return src, dst

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        x = in_types[0]
        # v7's checks and their order (v7 also took floating-point inputs only)
        for a in self.source:
            expect_axis(x.ndim, a, 'source', negative='>')
        for a in self.destination:
            expect_axis(x.ndim, a, 'destination', negative='>')
        self._normalized(type_check.eval(x.ndim))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        src, dst = self._normalized(x.ndim)
        order = [a for a in range(x.ndim) if a not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        self._perm = tuple(order)
        return x.transpose(self._perm),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        return transpose(gy, tuple(numpy.argsort(self._perm).tolist())),


@guarded
def moveaxis(x: VariableOrArray, source: int | Sequence[int],
             destination: int | Sequence[int]) -> Variable:
    """Move the axes ``source`` of ``x`` to the positions ``destination``.

    Args:
        x: input variable.
        source: an int or a sequence of ints (original positions).
        destination: an int or a sequence of ints (new positions), as many.

    Returns:
        The variable with its axes moved (no copy).

    Raises:
        chainer.utils.type_check.InvalidType: for an axis out of range.
        ValueError: for repeated axes or different numbers of axes.
    """
    return Moveaxis(source, destination).apply((x,))[0]
