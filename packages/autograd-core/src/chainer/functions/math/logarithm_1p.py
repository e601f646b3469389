"""``log(1 + x)``, accurate for small ``x``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Log1p(UnaryFloat):
    """Elementwise ``log(1 + x)``."""

    _name = 'log1p'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy / (x + 1),


@guarded
def log1p(x: VariableOrArray) -> Variable:
    """Elementwise ``log(1 + x)`` (accurate where ``x`` is close to zero).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Log1p().apply((x,))[0]
