"""Elementwise square."""

from __future__ import annotations

from typing import Any

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable


class Square(UnaryFloat):
    """Elementwise ``x ** 2``."""

    _name = 'square'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = retained_inputs(self)
        return grad_outputs[0] * x * 2,


@guarded
def square(x: Any) -> Variable:
    """Elementwise square ``y = x ** 2``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Square().apply((x,))[0]
