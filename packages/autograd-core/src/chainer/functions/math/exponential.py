"""Exponential and logarithms (natural, base 2 and base 10)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, VariableOrArray


class Exp(UnaryFloat):
    """Elementwise exponential."""

    _name = 'exp'
    _argnames = None  # v7 did not name the input: in_types[0]
    _retain = 'y'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        y, = retained_outputs(self)
        return gy * y,


class Log(UnaryFloat):
    """Elementwise logarithm in ``base`` (e, 2 or 10)."""

    _funcs = {'e': 'log', 2: 'log2', 10: 'log10'}

    def __init__(self, base: Literal['e', 2, 10] = 'e') -> None:
        self.base = base
        self._name = self._funcs[base]

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        if self.base == 'e':
            return gy / x,
        return gy / x * (1.0 / math.log(self.base)),


@guarded
def exp(x: VariableOrArray) -> Variable:
    """Elementwise exponential ``e ** x``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([0., 1., 2.], np.float32)
        >>> print(F.exp(x).array)
        [1.        2.718282  7.3890557]
    """
    return Exp().apply((x,))[0]


@guarded
def log(x: VariableOrArray) -> Variable:
    """Elementwise natural logarithm.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([1., np.e, 10.], np.float32)
        >>> print(F.log(x).array)
        [0.        1.        2.3025851]
    """
    return Log().apply((x,))[0]


@guarded
def log2(x: VariableOrArray) -> Variable:
    """Elementwise logarithm in base 2.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Log(2).apply((x,))[0]


@guarded
def log10(x: VariableOrArray) -> Variable:
    """Elementwise logarithm in base 10.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return Log(10).apply((x,))[0]


class Log2(Log):
    """Elementwise base-2 logarithm (v7's node of :func:`log2`)."""

    def __init__(self) -> None:
        super().__init__(2)


class Log10(Log):
    """Elementwise base-10 logarithm (v7's node of :func:`log10`)."""

    def __init__(self) -> None:
        super().__init__(10)
