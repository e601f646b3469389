"""Elementwise sign (-1, 0 or 1) (not differentiable)."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, nondifferentiable
from chainer.variable import Variable


class Sign(FunctionNode):
    """Elementwise sign (-1, 0 or 1); the output carries no gradient."""

    @property
    def label(self) -> str:
        return 'sign'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        return utils.force_array(backend.get_array_module(x).sign(x), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return None,


def sign(x: Any) -> Variable:
    """Elementwise sign (-1, 0 or 1).

    The result is piecewise constant, so it is returned cut from the graph.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype, without gradient.
    """
    return nondifferentiable(Sign(), x)
