"""Mean absolute error."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.loss._pair import PairLoss
from chainer.functions.loss._util import scaled_sum
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class MeanAbsoluteError(PairLoss):
    """``mean(|x0 - x1|)`` over all elements."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        self._sign = xp.sign(diff)
        self._coeff = 1.0 / max(diff.size, 1)
        return scaled_sum(abs(diff), self._coeff, x0.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        gx0 = broadcast_to(gy * self._coeff, self._sign.shape) * self._sign
        return self.pair_grads(gx0, indexes)


@guarded
def mean_absolute_error(x0: VariableOrArray, x1: VariableOrArray) -> Variable:
    """Mean absolute error ``mean(|x0 - x1|)`` over all elements.

    Args:
        x0: a float variable or array.
        x1: a variable or array of the same shape and dtype.

    Returns:
        A scalar variable (0 for empty inputs).

    Raises:
        chainer.utils.type_check.InvalidType: for mismatched shapes or dtypes,
            or a non-float input.
    """
    return MeanAbsoluteError().apply((x0, x1))[0]
