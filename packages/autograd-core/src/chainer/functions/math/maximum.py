"""Elementwise maximum of two variables."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, mask_grad, sum_grad
from chainer.utils import type_check
from chainer.variable import Variable


class Maximum(FunctionNode):
    """Elementwise ``max(x1, x2)`` with broadcasting; ties send the gradient to ``x1``."""

    @property
    def label(self) -> str:
        return 'maximum'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types, ('x1', 'x2'))
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        return utils.force_array(backend.get_array_module(x1).maximum(x1, x2)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x1, x2 = self.get_retained_inputs()
        gy, = grad_outputs
        cond = x1.array >= x2.array
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(mask_grad(gy, cond), x1.shape))
            else:
                ret.append(sum_grad(mask_grad(gy, ~cond), x2.shape))
        return tuple(ret)


def maximum(x1: Any, x2: Any) -> Variable:
    """Elementwise maximum of ``x1`` and ``x2``.

    Where they are equal the gradient goes to ``x1``.

    Args:
        x1, x2: float variables of one dtype whose shapes broadcast together.

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return Maximum().apply((x1, x2))[0]
