"""``exp(x) - 1``, accurate for small ``x``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_outputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Expm1(UnaryFloat):
    """Elementwise ``exp(x) - 1``."""

    _name = 'expm1'
    _retain = 'y'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        y, = retained_outputs(self)
        return gy * (y + 1),


@guarded
def expm1(x: VariableOrArray) -> Variable:
    """Elementwise ``exp(x) - 1`` (accurate where ``x`` is close to zero).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Expm1().apply((x,))[0]
