"""Squared L2 norm of each example of a batch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.math._util import expect_float
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class BatchL2NormSquared(FunctionNode):
    """``sum(x[i] ** 2)`` for each ``i`` along the first axis."""

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types)
        type_check.expect(in_types[0].ndim >= 2)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        x2 = x.reshape(len(x), utils.size_of_shape(x.shape[1:]))
        return utils.force_array((x2 * x2).sum(axis=1), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        gy = reshape(g, (len(x),) + (1,) * (x.ndim - 1))
        return broadcast_to(gy, x.shape) * x * 2,


@guarded
def batch_l2_norm_squared(x: VariableOrArray) -> Variable:
    """Squared L2 (Euclidean) norm of each example; no reduction over the batch.

    Args:
        x: float variable whose first axis is the batch; the other axes are flattened.

    Returns:
        A 1-D variable of length ``x.shape[0]``.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or fewer than two axes.
    """
    return BatchL2NormSquared().apply((x,))[0]


class BatchL2NormSquaredGrad(BackwardNode):
    """The gradient of :class:`BatchL2NormSquared`: ``(x, gy)`` to ``gx = 2 gy x``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def primal(self) -> FunctionNode:
        return BatchL2NormSquared()
