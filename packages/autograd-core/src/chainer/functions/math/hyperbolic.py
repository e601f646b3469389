"""Hyperbolic sine and cosine."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float
from chainer.variable import Variable


class Cosh(FunctionNode):
    """Elementwise hyperbolic cosine."""

    @property
    def label(self) -> str:
        return 'cosh'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).cosh(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sinh(x),


class Sinh(FunctionNode):
    """Elementwise hyperbolic sine."""

    @property
    def label(self) -> str:
        return 'sinh'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).sinh(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cosh(x),


def cosh(x: Any) -> Variable:
    """Elementwise hyperbolic cosine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Cosh().apply((x,))[0]


def sinh(x: Any) -> Variable:
    """Elementwise hyperbolic sine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Sinh().apply((x,))[0]
