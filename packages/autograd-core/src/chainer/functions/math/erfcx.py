"""Scaled complementary error function ``erfcx(x) = exp(x^2) erfc(x)`` (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import Any

from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, special_call
from chainer.variable import Variable


class Erfcx(FunctionNode):
    """Elementwise scaled complementary error function ``erfcx(x) = exp(x^2) erfc(x)``"""

    @property
    def label(self) -> str:
        return 'erfcx'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        return special_call('erfcx', x.dtype, x),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        return gy * (x * y * 2 - 2 / math.sqrt(math.pi)),


def erfcx(x: Any) -> Variable:
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
