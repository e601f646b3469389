"""Elementwise ceiling (smallest integer not less than x) (not differentiable)."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, nondifferentiable
from chainer.variable import Variable


class Ceil(FunctionNode):
    """Elementwise ceiling (smallest integer not less than x); the output carries no gradient."""

    @property
    def label(self) -> str:
        return 'ceil'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        return utils.force_array(backend.get_array_module(x).ceil(x), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return None,


def ceil(x: Any) -> Variable:
    """Elementwise ceiling (smallest integer not less than x).

    The result is piecewise constant, so it is returned cut from the graph.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype, without gradient.
    """
    return nondifferentiable(Ceil(), x)
