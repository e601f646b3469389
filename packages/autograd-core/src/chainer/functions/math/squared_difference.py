"""Elementwise squared difference."""

from __future__ import annotations

from typing import Any

from chainer.functions.math._elementwise import BinaryFloat
from chainer.functions.math._util import sum_grad
from chainer.variable import Variable


class SquaredDifference(BinaryFloat):
    """Elementwise ``(x1 - x2) ** 2`` with broadcasting."""

    _name = 'squared_difference'
    _label = 'SquaredError'

    def compute(self, xp: Any, x1: Any, x2: Any) -> Any:
        d = x1 - x2
        return d * d

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
