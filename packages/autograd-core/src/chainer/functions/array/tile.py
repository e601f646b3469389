"""Tiling an array."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import as_int_tuple
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Tile(FunctionNode):
    """Repeat the whole array ``reps[i]`` times along each axis ``i``."""

    def __init__(self, reps: int | Sequence[int]) -> None:
        self.reps = as_int_tuple(reps, 'reps')
        if any(r < 0 for r in self.reps):
            raise ValueError(f'reps must be non-negative, not {self.reps}')

    @property
    def label(self) -> str:
        return 'Tile'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        return backend.get_array_module(x).tile(x, self.reps),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        in_shape = self._in_shape
        n = max(len(in_shape), len(self.reps))
        shape = (1,) * (n - len(in_shape)) + in_shape
        reps = (1,) * (n - len(self.reps)) + self.reps
        if all(r == 1 for r in reps):
            return reshape(gy, in_shape),
        interleaved: list[int] = []
        for r, s in zip(reps, shape):
            interleaved += [r, s]
        g = reshape(gy, tuple(interleaved))
        g = _sum(g, axis=tuple(range(0, 2 * n, 2)))
        return reshape(g, in_shape),


@guarded
def tile(x: VariableOrArray, reps: int | Sequence[int]) -> Variable:
    """Construct an array by tiling ``x`` ``reps`` times (like :func:`numpy.tile`).

    Args:
        x: input variable.
        reps: an int or a tuple of non-negative ints, the number of
            repetitions along each axis (aligned to the last axes).

    Returns:
        The tiled variable; its gradient sums the tiles.

    Raises:
        ValueError: for negative repetitions.
        TypeError: for non-integer repetitions.
    """
    return Tile(reps).apply((x,))[0]
