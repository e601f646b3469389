"""Elementwise maximum of two variables."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions.math._elementwise import Extremum
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class Maximum(Extremum):
    """Elementwise ``max(x1, x2)`` with broadcasting; ties send the gradient to ``x1``."""

    _name = 'maximum'
    _label = 'Maximum'
    _x1_wins = staticmethod(operator.ge)


@guarded
def maximum(x1: VariableOrArray, x2: VariableOrArray) -> Variable:
    """Elementwise maximum of ``x1`` and ``x2``.

    Where they are equal the gradient goes to ``x1``.

    Args:
        x1, x2: float variables of one dtype whose shapes broadcast together.

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> a = np.array([1., 5., 3.], np.float32)
        >>> b = np.array([4., 2., 3.], np.float32)
        >>> print(F.maximum(a, b).array)
        [4. 5. 3.]
    """
    return Maximum().apply((x1, x2))[0]


class MaximumGrad(BackwardNode):
    """The gradients of :class:`Maximum`: ``(x1, x2, gy)`` to ``(gx1, gx2)``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 2

    def primal(self) -> FunctionNode:
        return Maximum()
