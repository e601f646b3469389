"""Exponential and logarithm."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


def _check_float(in_types: Any) -> None:
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


class Exp(FunctionNode):
    """Elementwise exponential."""

    @property
    def label(self) -> str:
        return 'exp'

    def check_type_forward(self, in_types: Any) -> None:
        _check_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        return utils.force_array(backend.get_array_module(inputs[0]).exp(inputs[0])),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


class Log(FunctionNode):
    """Elementwise natural logarithm."""

    @property
    def label(self) -> str:
        return 'log'

    def check_type_forward(self, in_types: Any) -> None:
        _check_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        return utils.force_array(backend.get_array_module(inputs[0]).log(inputs[0])),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x,


def exp(x: Any) -> Variable:
    """Elementwise exponential."""
    return Exp().apply((x,))[0]


def log(x: Any) -> Variable:
    """Elementwise natural logarithm."""
    return Log().apply((x,))[0]
