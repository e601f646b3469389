"""Trigonometric functions and their inverses."""

from __future__ import annotations

from typing import Any

from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions.math._elementwise import BinaryFloat, UnaryFloat
from chainer.functions.math._util import sum_grad
from chainer.variable import Variable


class Sin(UnaryFloat):
    """Elementwise sine."""

    _name = 'sin'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cos(x),


class Cos(UnaryFloat):
    """Elementwise cosine."""

    _name = 'cos'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -sin(x),


class Tan(UnaryFloat):
    """Elementwise tangent."""

    _name = 'tan'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        c = cos(x)
        return grad_outputs[0] / (c * c),


class Arcsin(UnaryFloat):
    """Elementwise inverse sine."""

    _name = 'arcsin'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.sqrt import rsqrt

        x, = self.get_retained_inputs()
        return grad_outputs[0] * rsqrt(1 - x * x),


class Arccos(UnaryFloat):
    """Elementwise inverse cosine."""

    _name = 'arccos'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.sqrt import rsqrt

        x, = self.get_retained_inputs()
        return grad_outputs[0] * -rsqrt(1 - x * x),


class Arctan(UnaryFloat):
    """Elementwise inverse tangent."""

    _name = 'arctan'

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x * x + 1),


class Arctan2(BinaryFloat):
    """Elementwise ``arctan(x1 / x2)`` in the quadrant of ``(x2, x1)``, with broadcasting."""

    _name = 'arctan2'

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


class SinGrad(BackwardNode):
    """The gradient of :class:`Sin`: ``(x, gy)`` to ``gx``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def primal(self) -> FunctionNode:
        return Sin()


class CosGrad(BackwardNode):
    """The gradient of :class:`Cos`: ``(x, gy)`` to ``gx``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def primal(self) -> FunctionNode:
        return Cos()


class ArcsinGrad(BackwardNode):
    """The gradient of :class:`Arcsin`: ``(x, gy)`` to ``gx``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def primal(self) -> FunctionNode:
        return Arcsin()


class ArccosGrad(BackwardNode):
    """The gradient of :class:`Arccos`: ``(x, gy)`` to ``gx``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def primal(self) -> FunctionNode:
        return Arccos()


class ArctanGrad(BackwardNode):
    """The gradient of :class:`Arctan`: ``(x, gy)`` to ``gx``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def primal(self) -> FunctionNode:
        return Arctan()


class Arctan2Grad(BackwardNode):
    """The gradients of :class:`Arctan2`: ``(x1, x2, gy)`` to ``(gx1, gx2)``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 2

    def primal(self) -> FunctionNode:
        return Arctan2()
