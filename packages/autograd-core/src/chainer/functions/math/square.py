"""Elementwise square."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Square(UnaryFloat):
    """Elementwise ``x ** 2``."""

    _name = 'square'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * x * 2,


@guarded
def square(x: VariableOrArray) -> Variable:
    """Elementwise square ``y = x ** 2``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Square().apply((x,))[0]
