"""Logarithm of the absolute value of the gamma function (needs SciPy on the CPU)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import SpecialUnary
from chainer.functions.math.digamma import digamma
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class LGamma(SpecialUnary):
    """Elementwise logarithm of the absolute value of the gamma function."""

    _name = 'lgamma'
    _special = 'gammaln'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * digamma(x),


@guarded
def lgamma(x: VariableOrArray) -> Variable:
    """Elementwise logarithm of the absolute value of the gamma function.

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return LGamma().apply((x,))[0]
