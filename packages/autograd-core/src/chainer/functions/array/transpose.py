"""Transpose."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Transpose(FunctionNode):
    """Permute the axes of an array."""

    def __init__(self, axes: Sequence[int] | None = None) -> None:
        self.axes = None if axes is None else tuple(axes)

    @property
    def label(self) -> str:
        return 'Transpose'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        if self.axes is not None and sorted(a % max(x.ndim, 1) for a in self.axes) != list(
                range(x.ndim)):
            raise ValueError(f'axes {self.axes} are not a permutation of the {x.ndim} axes')
        return x.transpose(self.axes),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if self.axes is None:
            return transpose(gy),
        inv = tuple(numpy.argsort([a % len(self.axes) for a in self.axes]))
        return transpose(gy, inv),


@guarded
def transpose(x: VariableOrArray, axes: Sequence[int] | None = None) -> Variable:
    """Permute the axes of ``x`` (reverse them when ``axes`` is None).

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.transpose(x).shape
        (4, 3, 2)
        >>> F.transpose(x, axes=(1, 0, 2)).shape
        (3, 2, 4)
    """
    return Transpose(axes).apply((x,))[0]
