"""Inverse hyperbolic tangent."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float
from chainer.variable import Variable


class Arctanh(FunctionNode):
    """Elementwise inverse hyperbolic tangent."""

    @property
    def label(self) -> str:
        return 'arctanh'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).arctanh(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (1 - x * x),


def arctanh(x: Any) -> Variable:
    """Elementwise inverse hyperbolic tangent (defined on ``(-1, 1)``).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arctanh().apply((x,))[0]
