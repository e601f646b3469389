"""Means and weighted averages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import utils
from chainer.functions._guard import guarded
from chainer.functions._util import InvalidValue, v7_type_error
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import _ReshapeSizeError, expect_reshape, reshape
from chainer.functions.math.sum import Sum
from chainer.functions.math.sum import sum as _sum
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Mean(Sum):
    """Mean over ``axis`` (all axes when None) of ``n`` elements each.

    The forward is the array's ``mean`` (float16 accumulates in float32, as NumPy and
    CuPy do), the backward the sum's broadcast scaled by ``1 / n``.
    """

    def __init__(self, axis: int | tuple[int, ...] | None, keepdims: bool, n: int) -> None:
        super().__init__(axis, keepdims)
        self._scale = 1.0 / n

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        return utils.force_array(x.mean(axis=self.axis, keepdims=self.keepdims), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return super().backward(indexes, (gy * self._scale,))


@guarded
def average(x: VariableOrArray, axis: int | tuple[int, ...] | None = None,
            weights: VariableOrArray | None = None, keepdims: bool = False) -> Variable:
    """Weighted average of ``x`` over ``axis``.

    Args:
        x: input variable.
        axis: None, an int or a tuple of ints.
        weights: None, or weights of the shape of ``x`` when ``axis`` is None
            (anything that broadcasts to it), or 1-D weights along ``axis`` when it
            is one int.
        keepdims: keep the reduced axes.

    Raises:
        ValueError: when ``axis`` is a tuple of several axes with ``weights``, or
            ``weights`` does not match the length of ``axis``.
    """
    x = as_variable(x)
    if weights is None:
        try:
            axes = utils.normalize_axis_tuple(axis, x.ndim)
        except ValueError as e:
            # an axis out of range: v7's Mean type check reported it (also a ValueError)
            node = Mean(axis, keepdims, 1)
            err = v7_type_error('Mean', ('x',), (x.array,),
                                node.check_type_forward, cls=InvalidValue, whole=True)
            raise e if err is None else err from None
        n = utils.size_of_shape(x.shape[a] for a in axes)
        if n:
            return Mean(axis, keepdims, n).apply((x,))[0]
        return _sum(x, axis, keepdims) / 0.0
    weights = as_variable(weights)
    if axis is None:
        total = _sum(x * broadcast_to(weights, x.shape), None, keepdims)
        return total / broadcast_to(_sum(weights), total.shape)
    if isinstance(axis, tuple) and len(axis) != 1:
        raise ValueError('a tuple of several axes is not supported with weights')
    a = axis[0] if isinstance(axis, tuple) else axis
    a = utils.normalize_axis_tuple(a, x.ndim)[0]
    shape = [1] * x.ndim
    shape[a] = x.shape[a]
    if weights.ndim != 1 or weights.shape[0] != x.shape[a]:
        note = f'weights of shape {weights.shape} do not match axis {a} of length {x.shape[a]}'
        # v7 reshaped the weights to ``shape`` (a list) and failed there when sizes differ
        err = v7_type_error('Reshape', ('x',), (weights,),
                            lambda t: expect_reshape(t, shape), cls=_ReshapeSizeError,
                            note=note)
        raise ValueError(note) if err is None else err
    w = broadcast_to(reshape(weights, tuple(shape)), x.shape)
    total = _sum(x * w, a, keepdims)
    return total / broadcast_to(_sum(weights), total.shape)


@guarded
def mean(x: VariableOrArray, axis: int | tuple[int, ...] | None = None,
         weights: VariableOrArray | None = None, keepdims: bool = False) -> Variable:
    """Mean of ``x`` over ``axis`` (a weighted one when ``weights`` is given).

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.mean(x).array
        array(3.5, dtype=float32)
        >>> print(F.mean(x, axis=1).array)
        [2. 5.]
    """
    return average(x, axis, weights, keepdims)
