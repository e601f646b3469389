"""Elementwise squared error."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.loss._pair import PairLoss

# Chainer v7 defined squared_difference here too; it is the broadcasting one of F.
from chainer.functions.math.squared_difference import (
    squared_difference as squared_difference,
)
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class SquaredError(PairLoss):
    """``(x0 - x1) ** 2`` elementwise."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = x0 - x1
        return utils.force_array(diff * diff, x0.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x0, x1 = retained_inputs(self)
        gx0 = 2 * gy * (x0 - x1)
        return self.pair_grads(gx0, indexes)


@guarded
def squared_error(x0: VariableOrArray, x1: VariableOrArray) -> Variable:
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
