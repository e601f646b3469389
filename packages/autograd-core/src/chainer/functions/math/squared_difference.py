"""Elementwise squared difference."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import BinaryFloat
from chainer.functions.math._util import expect_float, sum_grad
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp


class SquaredDifference(BinaryFloat):
    """Elementwise ``(x1 - x2) ** 2`` with broadcasting."""

    _name = 'squared_difference'
    _label = 'SquaredError'  # v7's squared_difference applied SquaredError
    _argnames = ('x0', 'x1')

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # v7's checks (same dtype, same shape); shapes that broadcast are allowed too
        expect_float(in_types, self._argnames)
        x0, x1 = in_types
        try:
            numpy.broadcast_shapes(type_check.eval(x0.shape), type_check.eval(x1.shape))
        except ValueError:
            type_check.expect(x0.shape == x1.shape)

    def compute(self, xp: Xp, x1: NdArray, x2: NdArray) -> NdArray:
        d = x1 - x2
        return d * d

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x1, x2 = retained_inputs(self)
        g = gy * (x1 - x2) * 2
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(g, x1.shape))
            else:
                ret.append(sum_grad(-g, x2.shape))
        return tuple(ret)


@guarded
def squared_difference(x1: VariableOrArray, x2: VariableOrArray) -> Variable:
    """Elementwise squared difference ``(x1 - x2) ** 2``.

    Args:
        x1, x2: float variables of one dtype whose shapes broadcast together.

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return SquaredDifference().apply((x1, x2))[0]
