"""Elementwise squared error."""

from __future__ import annotations

from typing import Any

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions.loss.absolute_error import check_pair
from chainer.variable import Variable


class SquaredError(FunctionNode):
    """``(x0 - x1) ** 2`` elementwise."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'squared_error'

    def check_type_forward(self, in_types: Any) -> None:
        check_pair(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = x0 - x1
        return utils.force_array(diff * diff, x0.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x0, x1 = self.get_retained_inputs()
        gx0 = 2 * grad_outputs[0] * (x0 - x1)
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)


def squared_error(x0: Any, x1: Any) -> Variable:
    """Elementwise squared error ``(x0 - x1) ** 2``.

    Args:
        x0: a float variable or array.
        x1: a variable or array of the same shape and dtype.

    Returns:
        A variable of the shape of ``x0``.

    Raises:
        chainer.utils.type_check.InvalidType: for mismatched shapes or dtypes,
            or a non-float input.
    """
    return SquaredError().apply((x0, x1))[0]
