"""Mean squared error."""

from __future__ import annotations

from typing import Any

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class MeanSquaredError(FunctionNode):
    """``mean((x0 - x1) ** 2)`` over all elements."""

    _type_check_cache_attrs = ()

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x0', 'x1'))
        type_check.expect(in_types[0].dtype.kind == 'f',
                          in_types[0].dtype == in_types[1].dtype,
                          in_types[0].shape == in_types[1].shape)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = (x0 - x1).ravel()
        return utils.force_array(diff.dot(diff) / max(diff.size, 1), x0.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.array.broadcast import broadcast_to

        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        diff = x0 - x1
        gx0 = broadcast_to(gy, diff.shape) * diff * (2.0 / max(diff.size, 1))
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)


def mean_squared_error(x0: Any, x1: Any) -> Variable:
    """Mean squared error between two arrays of one shape and dtype.

    Returns:
        A scalar variable.
    """
    return MeanSquaredError().apply((x0, x1))[0]
