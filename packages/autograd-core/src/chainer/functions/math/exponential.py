"""Exponential and logarithms (natural, base 2 and base 10)."""

from __future__ import annotations

import math
from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float
from chainer.variable import Variable


class Exp(FunctionNode):
    """Elementwise exponential."""

    @property
    def label(self) -> str:
        return 'exp'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        return utils.force_array(backend.get_array_module(inputs[0]).exp(inputs[0])),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


class Log(FunctionNode):
    """Elementwise logarithm in ``base`` (e, 2 or 10)."""

    _funcs = {'e': 'log', 2: 'log2', 10: 'log10'}

    def __init__(self, base: Any = 'e') -> None:
        self.base = base

    @property
    def label(self) -> str:
        return self._funcs[self.base]

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        fn = getattr(backend.get_array_module(x), self._funcs[self.base])
        return utils.force_array(fn(x)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        if self.base == 'e':
            return grad_outputs[0] / x,
        return grad_outputs[0] / x * (1.0 / math.log(self.base)),


def exp(x: Any) -> Variable:
    """Elementwise exponential ``e ** x``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Exp().apply((x,))[0]


def log(x: Any) -> Variable:
    """Elementwise natural logarithm.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Log().apply((x,))[0]


def log2(x: Any) -> Variable:
    """Elementwise logarithm in base 2.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Log(2).apply((x,))[0]


def log10(x: Any) -> Variable:
    """Elementwise logarithm in base 10.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Log(10).apply((x,))[0]
