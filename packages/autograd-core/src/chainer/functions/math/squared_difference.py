"""Elementwise squared difference."""

from __future__ import annotations

from typing import Any

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, sum_grad
from chainer.utils import type_check
from chainer.variable import Variable


class SquaredDifference(FunctionNode):
    """Elementwise ``(x1 - x2) ** 2`` with broadcasting."""

    @property
    def label(self) -> str:
        return 'squared_difference'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types, ('x1', 'x2'))
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        d = x1 - x2
        return utils.force_array(d * d),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x1, x2 = self.get_retained_inputs()
        g = grad_outputs[0] * (x1 - x2) * 2
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(g, x1.shape))
            else:
                ret.append(sum_grad(-g, x2.shape))
        return tuple(ret)


def squared_difference(x1: Any, x2: Any) -> Variable:
    """Elementwise squared difference ``(x1 - x2) ** 2``.

    Args:
        x1, x2: float variables of one dtype whose shapes broadcast together.

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return SquaredDifference().apply((x1, x2))[0]
