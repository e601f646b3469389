"""Inverse complementary error function (defined on ``[0, 2]``) (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import Any

from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, special_call
from chainer.variable import Variable


class ErfcInv(FunctionNode):
    """Elementwise inverse complementary error function (defined on ``[0, 2]``)."""

    @property
    def label(self) -> str:
        return 'erfcinv'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        x, = inputs
        return special_call('erfcinv', x.dtype, x),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.exponential import exp

        y, = self.get_retained_outputs()
        gy, = grad_outputs
        return gy * exp(y * y) * (-math.sqrt(math.pi) / 2),


def erfcinv(x: Any) -> Variable:
    """Elementwise inverse complementary error function (defined on ``[0, 2]``).

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return ErfcInv().apply((x,))[0]
