"""Removing axes of length one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import axis_note, expect_noted
from chainer.functions.array._util import as_int_tuple
from chainer.functions.array.reshape import reshape
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Squeeze(FunctionNode):
    """Remove the axes of length one named by ``axis`` (all of them when None)."""

    def __init__(self, axis: int | Sequence[int] | None = None) -> None:
        self.axis = None if axis is None else as_int_tuple(axis, 'axis')

    @property
    def label(self) -> str:
        return 'Squeeze'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.expect(in_types.size() == 1)  # v7 leaves the input unnamed
        if self.axis is not None:
            x = in_types[0]
            ndim = type_check.eval(x.ndim)
            for a in self.axis:
                expect_noted(axis_note(a, ndim), a < x.ndim if a >= 0 else -x.ndim <= a)
            axes = [a % ndim for a in self.axis]
            if len(set(axes)) != len(axes):
                raise ValueError(f'duplicate value in axis: {self.axis}')
            shape = type_check.eval(x.shape)
            for a in axes:
                if shape[a] != 1:
                    raise ValueError(f'squeeze: axis {a} of x has length {shape[a]}, not 1 '
                                     f'(x.shape = {shape})')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.squeeze(x, self.axis),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        return reshape(gy, self._in_shape),


@guarded
def squeeze(x: VariableOrArray, axis: int | Sequence[int] | None = None) -> Variable:
    """Remove axes of length one from ``x`` (no copy).

    Args:
        x: input variable.
        axis: None (every axis of length one), an int or a tuple of ints.

    Returns:
        The squeezed variable.

    Raises:
        chainer.utils.type_check.InvalidType: for an axis out of range.
        ValueError: for an axis whose length is not one, or a repeated axis.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.zeros((1, 3, 1, 2), np.float32)
        >>> F.squeeze(x).shape
        (3, 2)
        >>> F.squeeze(x, axis=2).shape
        (1, 3, 2)
    """
    return Squeeze(axis).apply((x,))[0]


def argone(iterable: Iterable[int]) -> list[int]:
    """The positions of the entries equal to one (e.g. the squeezable axes of a shape).

    Args:
        iterable: a sequence such as a shape.

    Returns:
        A list of indices, in increasing order.
    """
    return [i for i, n in enumerate(iterable) if n == 1]
