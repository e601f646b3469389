"""Elementwise choice between two variables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.math.sum import sum_to
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Where(FunctionNode):
    """``condition ? x : y`` elementwise, with broadcasting."""

    def __init__(self, condition: VariableOrArray) -> None:
        self.condition = as_array(condition)

    @property
    def label(self) -> str:
        return 'Where'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 'y'))
        x, y = in_types
        c = type_check._make_variable_from_array(self.condition, 'condition')
        type_check.expect(c.dtype == numpy.bool_, x.dtype == y.dtype)  # as v7 writes it
        type_check.expect_broadcast_shapes(c.shape, x.shape, y.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, y = inputs
        xp = backend.get_array_module(x, y)
        self.condition = c = xp.asarray(self.condition)
        self._shapes = (x.shape, y.shape)
        return xp.asarray(xp.where(c, x, y)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        xp = backend.get_array_module(gy.array)
        zero = xp.zeros((), gy.dtype)
        ret = []
        for i in indexes:
            pair = (gy, zero) if i == 0 else (zero, gy)
            g = Where(self.condition).apply(pair)[0]
            if g.shape != self._shapes[i]:
                g = sum_to(g, self._shapes[i])
            ret.append(g)
        return tuple(ret)


@guarded
def where(condition: VariableOrArray, x: VariableOrArray, y: VariableOrArray) -> Variable:
    """Choose elements from ``x`` where ``condition`` holds, else from ``y``.

    Args:
        condition: boolean array or variable (not differentiated).
        x, y: variables of one dtype; the three shapes broadcast together.
            One of them may be a Python or NumPy scalar (it takes the dtype of
            the other).

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-boolean condition,
            different dtypes, or shapes that do not broadcast.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> cond = np.array([True, False, True])
        >>> x = np.array([1, 2, 3], np.float32)
        >>> y = np.array([-1, -2, -3], np.float32)
        >>> print(F.where(cond, x, y).array)
        [ 1. -2.  3.]
    """
    x_scalar = _is_scalar(x)
    y_scalar = _is_scalar(y)
    if x_scalar and y_scalar:
        raise TypeError('where: x and y cannot both be scalars')
    if x_scalar:
        x = _scalar_like(x, y)
    elif y_scalar:
        y = _scalar_like(y, x)
    return Where(condition).apply((x, y))[0]


def _is_scalar(v: Any) -> bool:
    return isinstance(v, (int, float, numpy.number, numpy.bool_))


def _scalar_like(value: Any, other: Any) -> Any:
    arr = as_array(other)
    xp = backend.get_array_module(arr)
    return xp.asarray(value, dtype=arr.dtype)
