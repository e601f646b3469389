"""Bases of the float elementwise functions: one input, or two whose shapes broadcast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import expect_float, mask_grad, special_call, sum_grad
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, Xp


class UnaryFloat(FunctionNode):
    """``xp.<_name>(x)`` of one float input; :meth:`compute` gives the output array.

    ``_retain`` names what the backward reads: ``'x'``, ``'y'``, ``'xy'`` or ``''``.
    """

    _name = ''
    _label: str | None = None  # v7's label, where it is not ``_name``
    # the input's name in type-check messages (None: ``in_types[0]``, as v7 where
    # the function did not name it)
    _argnames: tuple[str, ...] | None = ('x',)
    _retain = 'x'

    @property
    def label(self) -> str:
        return self._label or self._name

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, self._argnames)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        if 'x' in self._retain:
            self.retain_inputs((0,))
        if 'y' in self._retain:
            self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(self.compute(backend.get_array_module(x), x)),

    def compute(self, xp: Xp, x: NdArray) -> NdArray:
        """The output array (``xp.<_name>(x)`` unless overridden)."""
        return getattr(xp, self._name)(x)


class PiecewiseConstant(UnaryFloat):
    """``xp.<_name>(x)`` in the dtype of ``x``, retaining nothing; it has no gradient."""

    _retain = ''

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # integers too, as in Chainer v7 (which applied xp.<_name> without a check)
        type_check.argname(in_types, ('x',))
        dtype = type_check.eval(in_types[0].dtype)
        if dtype.kind not in 'iuf':
            raise type_check.InvalidType("x.dtype.kind in 'iuf'", f'x.dtype = {dtype}',
                                         f'x must be an integer or float array, not {dtype}')

    def compute(self, xp: Xp, x: NdArray) -> NdArray:
        return utils.force_array(getattr(xp, self._name)(x), x.dtype)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return None,


class SpecialUnary(UnaryFloat):
    """``special.<_special>(x)`` (``_special`` defaults to ``_name``) in the dtype of ``x``,
    with scipy.special on the CPU and cupyx.scipy.special on the GPU."""

    _special: str | None = None

    def compute(self, xp: Xp, x: NdArray) -> NdArray:
        return special_call(self._special or self._name, x.dtype, x)


class BinaryFloat(FunctionNode):
    """``xp.<_name>(x1, x2)`` of two float inputs of one dtype whose shapes broadcast.

    Both inputs are retained; :meth:`compute` gives the output array.
    """

    _name = ''
    _label: str | None = None  # v7's label, where it is not ``_name``
    _argnames = ('x1', 'x2')

    @property
    def label(self) -> str:
        return self._label or self._name

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, self._argnames)
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        return utils.force_array(self.compute(backend.get_array_module(x1), x1, x2)),

    def compute(self, xp: Xp, x1: NdArray, x2: NdArray) -> NdArray:
        """The output array (``xp.<_name>(x1, x2)`` unless overridden)."""
        return getattr(xp, self._name)(x1, x2)


class Extremum(BinaryFloat):
    """Elementwise maximum or minimum: ``x1`` wins where ``_x1_wins(x1, x2)`` (ties included),
    and the gradient goes to the winner."""

    _x1_wins: Any = None

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        xs = retained_inputs(self)
        gy, = grad_outputs
        cond = self._x1_wins(xs[0].array, xs[1].array)
        return tuple(sum_grad(mask_grad(gy, cond if i == 0 else ~cond), xs[i].shape)
                     for i in indexes)
