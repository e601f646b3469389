"""Inverse error function (defined on ``[-1, 1]``) (needs SciPy on the CPU)."""

from __future__ import annotations

import math
from typing import Any

from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, special_call
from chainer.variable import Variable


class ErfInv(FunctionNode):
    """Elementwise inverse error function (defined on ``[-1, 1]``)."""

    @property
    def label(self) -> str:
        return 'erfinv'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        x, = inputs
        return special_call('erfinv', x.dtype, x),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.exponential import exp

        y, = self.get_retained_outputs()
        gy, = grad_outputs
        return gy * exp(y * y) * (math.sqrt(math.pi) / 2),


def erfinv(x: Any) -> Variable:
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
