"""Elementwise sign (-1, 0 or 1) (not differentiable)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.math._elementwise import PiecewiseConstant
from chainer.functions.math._util import nondifferentiable
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class Sign(PiecewiseConstant):
    """Elementwise sign (-1, 0 or 1); the output carries no gradient."""

    _name = 'sign'


@guarded
def sign(x: VariableOrArray) -> Variable:
    """Elementwise sign (-1, 0 or 1).

    The result is piecewise constant, so it is returned cut from the graph.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype, without gradient.
    """
    return nondifferentiable(Sign(), x)
