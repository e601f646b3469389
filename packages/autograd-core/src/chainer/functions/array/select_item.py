"""Selecting one element per row."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, GradInputs, GradOutputs, NdArray, VariableOrArray


class SelectItem(FunctionNode):
    """``y[i] = x[i, t[i]]`` for a matrix ``x`` and integer vector ``t``."""

    @property
    def label(self) -> str:
        return 'SelectItem'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(t.dtype.kind == 'i', x.ndim == 2, t.ndim == 1,
                          x.shape[0] == t.shape[0])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((1,))
        x, t = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        if t.size and x.shape[1] == 0:
            raise IndexError('select_item: x has no columns to select from')
        if chainer.is_debug() and t.size and not bool(((t >= 0) & (t < x.shape[1])).all()):
            raise ValueError(f'select_item: t has a value out of [0, {x.shape[1]}) '
                             '(checked in debug mode)')
        return x[xp.arange(t.shape[0]), t],

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        t = retained_inputs(self)[0].array
        if 0 not in indexes:
            return None,
        return SelectItemGrad(t, self._in_shape).apply(grad_outputs)[0], None


class SelectItemGrad(FunctionNode):
    """Place ``gy[i]`` at ``(i, t[i])`` of a zero matrix (the adjoint of SelectItem)."""

    def __init__(self, t: NdArray, in_shape: tuple[int, ...]) -> None:
        self.t = t
        self._in_shape = in_shape

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        gx[xp.arange(self.t.shape[0]), self.t] = gy
        return gx,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return select_item(gy, self.t),


@guarded
def select_item(x: VariableOrArray, t: VariableOrArray) -> Variable:
    """Select one element per row: ``y[i] = x[i, t[i]]``.

    Args:
        x: variable of shape ``(B, N)``.
        t: integer variable/array of shape ``(B,)`` with values in ``[-N, N)``.

    Returns:
        A variable of shape ``(B,)``.

    Raises:
        chainer.utils.type_check.InvalidType: on mismatched shapes or a
            non-integer ``t``.
        IndexError: for a ``t`` out of range.
        ValueError: in debug mode, for a ``t`` out of ``[0, N)`` (negative too).
    """
    return SelectItem().apply((x, t))[0]


class Assign(SelectItemGrad):
    """The gradient of :func:`select_item`, applied to ``(gy,)``: a zero array of
    ``shape`` with ``gy[i]`` at ``(i, t[i])``.

    Args:
        shape: the shape ``(B, N)`` of the selected-from input.
        dtype: its dtype (the result has the dtype of ``gy``, which matches it).
        t: the selected indices, an integer array of shape ``(B,)``.
    """

    def __init__(self, shape: tuple[int, ...], dtype: DTypeSpec, t: NdArray) -> None:
        super().__init__(t, tuple(shape))
        self.dtype = dtype

    @property
    def label(self) -> str:
        return 'Assign'
