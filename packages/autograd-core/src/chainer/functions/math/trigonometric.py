"""Trigonometric functions and their inverses."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import expect_float, sum_grad
from chainer.utils import type_check
from chainer.variable import Variable


class _Unary(FunctionNode):
    _name = ''

    @property
    def label(self) -> str:
        return self._name

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(getattr(backend.get_array_module(x), self._name)(x)),


class Sin(_Unary):
    """Elementwise sine."""

    _name = 'sin'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cos(x),


class Cos(_Unary):
    """Elementwise cosine."""

    _name = 'cos'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -sin(x),


class Tan(_Unary):
    """Elementwise tangent."""

    _name = 'tan'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        c = cos(x)
        return grad_outputs[0] / (c * c),


class Arcsin(_Unary):
    """Elementwise inverse sine."""

    _name = 'arcsin'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.sqrt import rsqrt

        x, = self.get_retained_inputs()
        return grad_outputs[0] * rsqrt(1 - x * x),


class Arccos(_Unary):
    """Elementwise inverse cosine."""

    _name = 'arccos'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.sqrt import rsqrt

        x, = self.get_retained_inputs()
        return grad_outputs[0] * -rsqrt(1 - x * x),


class Arctan(_Unary):
    """Elementwise inverse tangent."""

    _name = 'arctan'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x * x + 1),


class Arctan2(FunctionNode):
    """Elementwise ``arctan(x1 / x2)`` in the quadrant of ``(x2, x1)``, with broadcasting."""

    @property
    def label(self) -> str:
        return 'arctan2'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types, ('x1', 'x2'))
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        return utils.force_array(backend.get_array_module(x1).arctan2(x1, x2)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x1, x2 = self.get_retained_inputs()
        gy, = grad_outputs
        g = gy / (x1 * x1 + x2 * x2)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(g * x2, x1.shape))
            else:
                ret.append(sum_grad(g * -x1, x2.shape))
        return tuple(ret)


def sin(x: Any) -> Variable:
    """Elementwise sine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Sin().apply((x,))[0]


def cos(x: Any) -> Variable:
    """Elementwise cosine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Cos().apply((x,))[0]


def tan(x: Any) -> Variable:
    """Elementwise tangent.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Tan().apply((x,))[0]


def arcsin(x: Any) -> Variable:
    """Elementwise inverse sine (NaN outside ``[-1, 1]``).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arcsin().apply((x,))[0]


def arccos(x: Any) -> Variable:
    """Elementwise inverse cosine (NaN outside ``[-1, 1]``).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arccos().apply((x,))[0]


def arctan(x: Any) -> Variable:
    """Elementwise inverse tangent.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arctan().apply((x,))[0]


def arctan2(x1: Any, x2: Any) -> Variable:
    """Elementwise angle of the point ``(x2, x1)``: ``arctan(x1 / x2)`` in the right quadrant.

    Args:
        x1: y-coordinates (float variable).
        x2: x-coordinates, of the same dtype and a shape that broadcasts with ``x1``.

    Returns:
        A variable of the broadcast shape, in ``[-pi, pi]``.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return Arctan2().apply((x1, x2))[0]
