"""``exp(x) - 1``, accurate for small ``x``."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float
from chainer.variable import Variable


class Expm1(FunctionNode):
    """Elementwise ``exp(x) - 1``."""

    @property
    def label(self) -> str:
        return 'expm1'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).expm1(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (y + 1),


def expm1(x: Any) -> Variable:
    """Elementwise ``exp(x) - 1`` (accurate where ``x`` is close to zero).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Expm1().apply((x,))[0]
