"""Concatenated rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs
from chainer.utils import numeric_args, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class CReLU(FunctionNode):
    """``concat(max(0, x), max(0, -x))`` along ``axis``."""

    _type_check_cache_attrs = ('axis',)

    def __init__(self, axis: int = 1) -> None:
        self.axis = numeric_args.as_int(axis, 'axis')

    @property
    def label(self) -> str:
        return 'CReLU'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types)
        x_type, = in_types
        type_check.expect(x_type.ndim > self.axis, x_type.ndim >= -self.axis)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(
            xp.concatenate((xp.maximum(x, 0), xp.maximum(-x, 0)), axis=self.axis)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0].array
        axis = self.axis % x.ndim
        return _CReLUGrad(x > 0, x < 0, axis).apply(grad_outputs)


class _CReLUGrad(FunctionNode):
    """``gy_pos * (x > 0) - gy_neg * (x < 0)`` from the two halves of ``gy``."""

    def __init__(self, pos: Any, neg: Any, axis: int) -> None:
        self.pos = pos
        self.neg = neg
        self.axis = axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        n = self.pos.shape[self.axis]
        idx = (slice(None),) * self.axis
        g_pos = gy[idx + (slice(0, n),)]
        g_neg = gy[idx + (slice(n, 2 * n),)]
        return utils.force_array(g_pos * self.pos - g_neg * self.neg, gy.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return _CReLUGradTranspose(self.pos, self.neg, self.axis).apply(grad_outputs)


class _CReLUGradTranspose(FunctionNode):
    """The adjoint of :class:`_CReLUGrad`: ``concat(g * (x > 0), -g * (x < 0))``."""

    def __init__(self, pos: Any, neg: Any, axis: int) -> None:
        self.pos = pos
        self.neg = neg
        self.axis = axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        g, = inputs
        xp = backend.get_array_module(g)
        return utils.force_array(
            xp.concatenate((g * self.pos, -(g * self.neg)), axis=self.axis), g.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return _CReLUGrad(self.pos, self.neg, self.axis).apply(grad_outputs)


@guarded
def crelu(x: VariableOrArray, axis: int = 1) -> Variable:
    """Concatenated ReLU: ``max(0, x)`` and ``max(0, -x)`` concatenated along ``axis``.

    Args:
        x: input variable or array of a float dtype.
        axis: the axis along which the two halves are concatenated.

    Returns:
        A variable whose ``axis`` is twice as long as that of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float ``x`` or an
            ``axis`` out of range.
    """
    return CReLU(axis).apply((x,))[0]
