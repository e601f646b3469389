"""Mean squared error."""

from __future__ import annotations

from typing import Any

from chainer import utils
from chainer.functions.loss._pair import PairLoss
from chainer.variable import Variable


class MeanSquaredError(PairLoss):
    """``mean((x0 - x1) ** 2)`` over all elements."""

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
        return self.pair_grads(gx0, indexes)


def mean_squared_error(x0: Any, x1: Any) -> Variable:
    """Mean squared error between two arrays of one shape and dtype.

    Returns:
        A scalar variable.
    """
    return MeanSquaredError().apply((x0, x1))[0]
