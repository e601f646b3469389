"""Elementwise floating-point remainder."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, sum_grad
from chainer.utils import type_check
from chainer.variable import Variable


class Fmod(FunctionNode):
    """Elementwise ``x - fix(x / divisor) * divisor`` (the sign of ``x``), with broadcasting."""

    @property
    def label(self) -> str:
        return 'fmod'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types, ('x', 'divisor'))
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x, divisor = inputs
        return utils.force_array(backend.get_array_module(x).fmod(x, divisor), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, divisor = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(gy, x.shape))
            else:
                xp = backend.get_array_module(x.array)
                q = utils.force_array(xp.fix(x.array / divisor.array), x.dtype)
                ret.append(sum_grad(gy * -q, divisor.shape))
        return tuple(ret)


def fmod(x: Any, divisor: Any) -> Variable:
    """Elementwise remainder of ``x / divisor`` with the sign of ``x`` (C's ``fmod``).

    Args:
        x: dividend (float variable).
        divisor: divisor, of the same dtype and a shape broadcasting with ``x``.

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return Fmod().apply((x, divisor))[0]
