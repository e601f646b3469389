"""Elementwise square."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float
from chainer.variable import Variable


class Square(FunctionNode):
    """Elementwise ``x ** 2``."""

    @property
    def label(self) -> str:
        return 'square'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).square(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * x * 2,


def square(x: Any) -> Variable:
    """Elementwise square ``y = x ** 2``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Square().apply((x,))[0]
