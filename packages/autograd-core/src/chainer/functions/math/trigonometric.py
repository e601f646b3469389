"""Trigonometric functions and their inverses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._composite import backward_node
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import BinaryFloat, UnaryFloat
from chainer.functions.math._util import sum_grad
from chainer.functions.math.sqrt import rsqrt
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Sin(UnaryFloat):
    """Elementwise sine."""

    _name = 'sin'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * cos(x),


class Cos(UnaryFloat):
    """Elementwise cosine."""

    _name = 'cos'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * -sin(x),


class Tan(UnaryFloat):
    """Elementwise tangent."""

    _name = 'tan'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        c = cos(x)
        return gy / (c * c),


class Arcsin(UnaryFloat):
    """Elementwise inverse sine."""

    _name = 'arcsin'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * rsqrt(1 - x * x),


class Arccos(UnaryFloat):
    """Elementwise inverse cosine."""

    _name = 'arccos'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy * -rsqrt(1 - x * x),


class Arctan(UnaryFloat):
    """Elementwise inverse tangent."""

    _name = 'arctan'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        return gy / (x * x + 1),


class Arctan2(BinaryFloat):
    """Elementwise ``arctan(x1 / x2)`` in the quadrant of ``(x2, x1)``, with broadcasting."""

    _name = 'arctan2'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x1, x2 = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        g = gy / (x1 * x1 + x2 * x2)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(g * x2, x1.shape))
            else:
                ret.append(sum_grad(g * -x1, x2.shape))
        return tuple(ret)


@guarded
def sin(x: VariableOrArray) -> Variable:
    """Elementwise sine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Sin().apply((x,))[0]


@guarded
def cos(x: VariableOrArray) -> Variable:
    """Elementwise cosine.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Cos().apply((x,))[0]


@guarded
def tan(x: VariableOrArray) -> Variable:
    """Elementwise tangent.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Tan().apply((x,))[0]


@guarded
def arcsin(x: VariableOrArray) -> Variable:
    """Elementwise inverse sine (NaN outside ``[-1, 1]``).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arcsin().apply((x,))[0]


@guarded
def arccos(x: VariableOrArray) -> Variable:
    """Elementwise inverse cosine (NaN outside ``[-1, 1]``).

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arccos().apply((x,))[0]


@guarded
def arctan(x: VariableOrArray) -> Variable:
    """Elementwise inverse tangent.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Arctan().apply((x,))[0]


@guarded
def arctan2(x1: VariableOrArray, x2: VariableOrArray) -> Variable:
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


SinGrad = backward_node(Sin)
CosGrad = backward_node(Cos)
ArcsinGrad = backward_node(Arcsin)
ArccosGrad = backward_node(Arccos)
ArctanGrad = backward_node(Arctan)
Arctan2Grad = backward_node(Arctan2, n_in=2)
