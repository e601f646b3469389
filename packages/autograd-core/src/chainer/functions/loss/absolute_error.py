"""Elementwise absolute error."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions.loss._pair import PairLoss
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class AbsoluteError(PairLoss):
    """``|x0 - x1|`` elementwise."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        self._sign = xp.sign(diff)
        return utils.force_array(abs(diff), x0.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gx0 = grad_outputs[0] * self._sign
        return self.pair_grads(gx0, indexes)


@guarded
def absolute_error(x0: VariableOrArray, x1: VariableOrArray) -> Variable:
    """Elementwise absolute error ``|x0 - x1|``.

    Args:
        x0: a float variable or array.
        x1: a variable or array of the same shape and dtype.

    Returns:
        A variable of the shape of ``x0``.

    Raises:
        chainer.utils.type_check.InvalidType: for mismatched shapes or dtypes,
            or a non-float input.
    """
    return AbsoluteError().apply((x0, x1))[0]
