"""Inverse error function (defined on ``[-1, 1]``) (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_outputs
from chainer.functions.math._elementwise import SpecialUnary
from chainer.functions.math.exponential import exp
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray

#: The constant factor of the derivative: ``d/dx erfinv(x) = BACKWORDC * exp(erfinv(x) ** 2)``.
BACKWORDC = math.sqrt(math.pi) / 2


class ErfInv(SpecialUnary):
    """Elementwise inverse error function (defined on ``[-1, 1]``)."""

    _name = 'erfinv'
    _retain = 'y'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        y, = retained_outputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * exp(y * y) * BACKWORDC,


@guarded
def erfinv(x: VariableOrArray) -> Variable:
    """Elementwise inverse error function (defined on ``[-1, 1]``).

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return ErfInv().apply((x,))[0]
