"""Elementwise floor (largest integer not greater than x) (not differentiable)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.math._elementwise import PiecewiseConstant
from chainer.functions.math._util import nondifferentiable
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class Floor(PiecewiseConstant):
    """Elementwise floor (largest integer not greater than x); the output carries no gradient."""

    _name = 'floor'


@guarded
def floor(x: VariableOrArray) -> Variable:
    """Elementwise floor (largest integer not greater than x).

    The result is piecewise constant, so it is returned cut from the graph.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype, without gradient.
    """
    return nondifferentiable(Floor(), x)
