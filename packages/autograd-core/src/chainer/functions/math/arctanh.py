"""Inverse hyperbolic tangent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Arctanh(UnaryFloat):
    """Elementwise inverse hyperbolic tangent."""

    _name = 'arctanh'
    _label = 'Arctanh'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy / (1 - x * x),


@guarded
def arctanh(x: VariableOrArray) -> Variable:
    """Elementwise inverse hyperbolic tangent (defined on ``(-1, 1)``).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arctanh().apply((x,))[0]
