"""Square root and reciprocal square root."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions._util import retained_outputs
from chainer.functions.math._elementwise import UnaryFloat
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp


class Sqrt(UnaryFloat):
    """Elementwise square root."""

    _name = 'sqrt'
    _retain = 'y'

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        y, = retained_outputs(self)
        return gy / (y * 2),


@guarded
def sqrt(x: VariableOrArray) -> Variable:
    """Elementwise square root.

    Args:
        x: input variable of a float dtype (NaN for negative entries).

    Returns:
        A variable of the same shape and dtype.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([1., 4., 9.], np.float32)
        >>> print(F.sqrt(x).array)
        [1. 2. 3.]
    """
    return Sqrt().apply((x,))[0]


@guarded
def rsqrt(x: VariableOrArray) -> Variable:
    """Elementwise reciprocal square root ``1 / sqrt(x)``.

    Args:
        x: input variable of a float dtype.

    Returns:
        A variable of the same shape and dtype.
    """
    return 1 / sqrt(x)


class RsqrtGPU(UnaryFloat):
    """Elementwise ``1 / sqrt(x)`` as one node (v7 used it on GPUs; it runs on any
    backend). Its gradient is ``-y ** 3 / 2``."""

    _name = 'rsqrt'
    _retain = 'y'

    def compute(self, xp: Xp, x: NdArray) -> NdArray:
        return x.dtype.type(1) / xp.sqrt(x)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        y, = retained_outputs(self)
        return gy * (y * y * y) * -0.5,
