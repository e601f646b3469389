"""Mean squared error."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.loss._pair import PairLoss
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class MeanSquaredError(PairLoss):
    """``mean((x0 - x1) ** 2)`` over all elements."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = (x0 - x1).ravel()
        if diff.dtype == numpy.float16:
            diff = diff.astype(numpy.float32)  # the sum of squares may exceed float16
        return utils.force_array(diff.dot(diff) / max(diff.size, 1), x0.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x0, x1 = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        diff = x0 - x1
        gx0 = broadcast_to(gy, diff.shape) * diff * (2.0 / max(diff.size, 1))
        return self.pair_grads(gx0, indexes)


@guarded
def mean_squared_error(x0: VariableOrArray, x1: VariableOrArray) -> Variable:
    """Mean squared error ``mean((x0 - x1) ** 2)`` over all elements.

    Args:
        x0: a float variable or array.
        x1: a variable or array of the same shape and dtype.

    Returns:
        A scalar variable (0 for empty inputs); float16 inputs are summed in
        float32, so the mean does not overflow where the sum would.

    Raises:
        chainer.utils.type_check.InvalidType: for mismatched shapes or dtypes,
            or a non-float input.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([1., 2., 3.], np.float32)
        >>> t = np.array([1., 0., 0.], np.float32)
        >>> F.mean_squared_error(x, t).array
        array(4.3333335, dtype=float32)
    """
    return MeanSquaredError().apply((x0, x1))[0]
