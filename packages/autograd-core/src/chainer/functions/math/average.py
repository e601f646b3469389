"""Means and weighted averages."""

from __future__ import annotations

from typing import Any

from chainer import utils
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as _sum
from chainer.variable import Variable, as_variable


def average(x: Any, axis: Any = None, weights: Any = None, keepdims: bool = False) -> Variable:
    """Weighted average of ``x`` over ``axis``.

    Args:
        x: input variable.
        axis: None, an int or a tuple of ints.
        weights: 1-D weights along ``axis`` (which must then be one int), or None.
        keepdims: keep the reduced axes.

    Raises:
        ValueError: when ``weights`` does not match the length of ``axis``.
    """
    x = as_variable(x)
    if weights is None:
        axes = utils.normalize_axis_tuple(axis, x.ndim)
        n = utils.size_of_shape(x.shape[a] for a in axes)
        return _sum(x, axis, keepdims) * (1.0 / n) if n else _sum(x, axis, keepdims) / 0.0
    if axis is None or isinstance(axis, tuple) and len(axis) != 1:
        raise ValueError('weights need a single axis')
    a = axis[0] if isinstance(axis, tuple) else axis
    a = utils.normalize_axis_tuple(a, x.ndim)[0]
    weights = as_variable(weights)
    if weights.ndim != 1 or weights.shape[0] != x.shape[a]:
        raise ValueError(f'weights of shape {weights.shape} do not match axis {a} of length '
                         f'{x.shape[a]}')
    shape = [1] * x.ndim
    shape[a] = x.shape[a]
    w = broadcast_to(reshape(weights, tuple(shape)), x.shape)
    total = _sum(x * w, a, keepdims)
    return total / broadcast_to(_sum(weights), total.shape)


def mean(x: Any, axis: Any = None, weights: Any = None, keepdims: bool = False) -> Variable:
    """Mean of ``x`` over ``axis`` (a weighted one when ``weights`` is given)."""
    return average(x, axis, weights, keepdims)
