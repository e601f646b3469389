"""Linear interpolation between two variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import expect_float
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class LinearInterpolate(FunctionNode):
    """``p * x + (1 - p) * y`` elementwise."""

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('p', 'x', 'y'))
        p, x, y = in_types
        type_check.expect(p.shape == x.shape, x.shape == y.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        p, x, y = inputs
        return utils.force_array(p * (x - y) + y, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        p, x, y = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * (x - y))
            elif i == 1:
                ret.append(g * p)
            else:
                ret.append(g * (1 - p))
        return tuple(ret)


@guarded
def linear_interpolate(p: VariableOrArray, x: VariableOrArray, y: VariableOrArray) -> Variable:
    """Elementwise linear interpolation ``p * x + (1 - p) * y``.

    Args:
        p: weights (float variable).
        x, y: end points, of the dtype and shape of ``p``.

    Returns:
        A variable of the same shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return LinearInterpolate().apply((p, x, y))[0]


class LinearInterpolateGrad(BackwardNode):
    """The gradients of :class:`LinearInterpolate`: ``(p, x, y, gz)`` to ``(gp, gx, gy)``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 3

    def primal(self) -> FunctionNode:
        return LinearInterpolate()
