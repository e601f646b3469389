"""Standard normal cumulative distribution function (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import Any

from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, special_call
from chainer.variable import Variable


class Ndtr(FunctionNode):
    """Elementwise cumulative distribution function of the standard normal distribution."""

    @property
    def label(self) -> str:
        return 'ndtr'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        return special_call('ndtr', x.dtype, x),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.exponential import exp

        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy * exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi)),


def ndtr(x: Any) -> Variable:
    """Elementwise cumulative distribution function of the standard normal distribution.

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return Ndtr().apply((x,))[0]
