"""Logarithm of :func:`ndtr`, accurate far into the lower tail (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import SpecialUnary
from chainer.functions.math.erfcx import erfcx
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class LogNdtr(SpecialUnary):
    """Elementwise logarithm of :func:`ndtr`, accurate far into the lower tail."""

    _name = 'log_ndtr'
    _argnames = None  # v7 did not name the input: in_types[0]

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * math.sqrt(2 / math.pi) / erfcx(x * (-1 / math.sqrt(2))),


@guarded
def log_ndtr(x: VariableOrArray) -> Variable:
    """Elementwise logarithm of :func:`ndtr`, accurate far into the lower tail.

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return LogNdtr().apply((x,))[0]
