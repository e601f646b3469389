"""Elementwise rounding toward zero (not differentiable)."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, nondifferentiable
from chainer.variable import Variable


class Fix(FunctionNode):
    """Elementwise rounding toward zero; the output carries no gradient."""

    @property
    def label(self) -> str:
        return 'fix'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        return utils.force_array(backend.get_array_module(x).fix(x), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return None,


def fix(x: Any) -> Variable:
    """Elementwise rounding toward zero.

    The result is piecewise constant, so it is returned cut from the graph.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype, without gradient.
    """
    return nondifferentiable(Fix(), x)
