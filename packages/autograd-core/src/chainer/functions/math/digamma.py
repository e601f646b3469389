"""Digamma function, the derivative of :func:`lgamma` (needs SciPy on the CPU)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import SpecialUnary
from chainer.functions.math.polygamma import polygamma
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class DiGamma(SpecialUnary):
    """Elementwise digamma function, the derivative of :func:`lgamma`."""

    _name = 'digamma'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        x, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        return gy * polygamma(1, x),


@guarded
def digamma(x: VariableOrArray) -> Variable:
    """Elementwise digamma function, the derivative of :func:`lgamma`.

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return DiGamma().apply((x,))[0]
