"""Square root and reciprocal square root."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float
from chainer.variable import Variable


class Sqrt(FunctionNode):
    """Elementwise square root."""

    @property
    def label(self) -> str:
        return 'sqrt'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).sqrt(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        y, = self.get_retained_outputs()
        return grad_outputs[0] / (y * 2),


def sqrt(x: Any) -> Variable:
    """Elementwise square root.

    Args:
        x: input variable of a float dtype (NaN for negative entries).

    Returns:
        A variable of the same shape and dtype.
    """
    return Sqrt().apply((x,))[0]


def rsqrt(x: Any) -> Variable:
    """Elementwise reciprocal square root ``1 / sqrt(x)``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return 1 / sqrt(x)
