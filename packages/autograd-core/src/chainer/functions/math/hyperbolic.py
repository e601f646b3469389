"""Hyperbolic sine and cosine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Cosh(UnaryFloat):
    """Elementwise hyperbolic cosine."""

    _name = 'cosh'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * sinh(x),


class Sinh(UnaryFloat):
    """Elementwise hyperbolic sine."""

    _name = 'sinh'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * cosh(x),


@guarded
def cosh(x: VariableOrArray) -> Variable:
    """Elementwise hyperbolic cosine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Cosh().apply((x,))[0]


@guarded
def sinh(x: VariableOrArray) -> Variable:
    """Elementwise hyperbolic sine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Sinh().apply((x,))[0]
