"""Elementwise absolute error."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


def check_pair(in_types: Any) -> None:
    """Two float arrays of one dtype and one shape, named x0 and x1."""
    type_check.argname(in_types, ('x0', 'x1'))
    type_check.expect(in_types[0].dtype.kind == 'f',
                      in_types[0].dtype == in_types[1].dtype,
                      in_types[0].shape == in_types[1].shape)


class AbsoluteError(FunctionNode):
    """``|x0 - x1|`` elementwise."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'absolute_error'

    def check_type_forward(self, in_types: Any) -> None:
        check_pair(in_types)

    def forward(self, inputs: Any) -> Any:
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        self._sign = xp.sign(diff)
        return utils.force_array(abs(diff), x0.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        gx0 = grad_outputs[0] * self._sign
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)


def absolute_error(x0: Any, x1: Any) -> Variable:
    """Elementwise absolute error ``|x0 - x1|``.

    Args:
        x0: a float variable or array.
        x1: a variable or array of the same shape and dtype.

    Returns:
        A variable of the shape of ``x0``.

    Raises:
        chainer.utils.type_check.InvalidType: for mismatched shapes or dtypes,
            or a non-float input.
    """
    return AbsoluteError().apply((x0, x1))[0]
