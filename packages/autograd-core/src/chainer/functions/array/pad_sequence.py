"""Padding sequences of different lengths into one array."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import expect_inputs
from chainer.functions.array.get_item import get_item
from chainer.functions.array.split_axis import split_axis
from chainer.functions.array.squeeze import squeeze
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, ScalarValue, VariableOrArray


def _padding_value(padding: Any, dtype: Any) -> Any:
    """``padding`` cast to ``dtype`` as a C cast does (-1 is 255 in uint8, as with NumPy 1)."""
    if numpy.dtype(dtype).kind in 'iub' and isinstance(padding, (int, numpy.integer)):
        return numpy.asarray(padding).astype(dtype)[()]
    return padding


class PadSequence(FunctionNode):
    """Stack arrays ``(L_i, ...)`` into ``(B, length, ...)`` filled with ``padding``."""

    def __init__(self, length: int | None, padding: ScalarValue) -> None:
        self.length = length
        self.padding = padding

    @property
    def label(self) -> str:
        return 'PadSequence'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n = expect_inputs(in_types, 'pad_sequence needs at least one sequence')
        x0 = in_types[0]
        type_check.expect(x0.ndim >= 1)
        for i in range(1, n):
            xi = in_types[i]
            type_check.expect(x0.dtype == xi.dtype, x0.ndim == xi.ndim)
            type_check.expect(x0.shape[1:] == xi.shape[1:])
        if self.length is not None:
            for i in range(n):
                type_check.expect(in_types[i].shape[0] <= self.length)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        xp = backend.get_array_module(*inputs)
        self._lengths = [len(x) for x in inputs]
        max_len = max(self._lengths)
        length = max_len if self.length is None else self.length
        if length < max_len:
            raise ValueError(f'length {length} is shorter than the longest sequence '
                             f'({max_len})')
        x0 = inputs[0]
        y = xp.full((len(inputs), length) + x0.shape[1:],
                    _padding_value(self.padding, x0.dtype), dtype=x0.dtype)
        for i, x in enumerate(inputs):
            y[i, :len(x)] = x
        return y,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        rows = split_axis(gy, len(self._lengths), 0) if len(self._lengths) > 1 else (gy,)
        ret = []
        for i in indexes:
            row = squeeze(rows[i], 0)
            n = self._lengths[i]
            ret.append(row if n == row.shape[0] else get_item(row, slice(0, n)))
        return tuple(ret)


@guarded
def pad_sequence(xs: Sequence[VariableOrArray], length: int | None = None,
                 padding: ScalarValue = 0) -> Variable:
    """Pad sequences of different lengths into one array.

    Args:
        xs: a list of variables/arrays of shapes ``(L_i, ...)`` with one dtype
            and equal trailing shapes.
        length: the padded length (default: the longest ``L_i``).
        padding: the value of the padded elements; an int is cast to an integer
            dtype with wrap-around (-1 pads uint8 with 255), as NumPy 1 did.

    Returns:
        A variable of shape ``(len(xs), length, ...)``.

    Raises:
        chainer.utils.type_check.InvalidType: for an empty list, mismatched
            inputs, or ``length`` shorter than a sequence.
        ValueError: ``length`` shorter than a sequence, with type checks off.
    """
    return PadSequence(length, padding).apply(tuple(xs))[0]
