"""Complementary error function ``erfc(x) = 1 - erf(x)`` (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import SpecialUnary
from chainer.functions.math.exponential import exp
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Erfc(SpecialUnary):
    """Elementwise complementary error function ``erfc(x) = 1 - erf(x)``."""

    _name = 'erfc'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * exp(-x * x) * (-2 / math.sqrt(math.pi)),


@guarded
def erfc(x: VariableOrArray) -> Variable:
    """Elementwise complementary error function ``erfc(x) = 1 - erf(x)``.

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return Erfc().apply((x,))[0]
