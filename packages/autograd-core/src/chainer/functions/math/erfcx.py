"""Scaled complementary error function ``erfcx(x) = exp(x^2) erfc(x)`` (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.math._elementwise import SpecialUnary
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Erfcx(SpecialUnary):
    """Elementwise scaled complementary error function ``erfcx(x) = exp(x^2) erfc(x)``"""

    _name = 'erfcx'
    _argnames = None  # v7 did not name the input: in_types[0]
    _retain = 'xy'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        y, = retained_outputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * (x * y * 2 - 2 / math.sqrt(math.pi)),


@guarded
def erfcx(x: VariableOrArray) -> Variable:
    """Elementwise scaled complementary error function ``erfcx(x) = exp(x^2) erfc(x)``
    (finite where ``erfc`` underflows).

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return Erfcx().apply((x,))[0]
