"""Caffe-style broadcasting elementwise product."""

from __future__ import annotations

from typing import Any

from chainer.variable import Variable, as_variable


def _expand(x: Variable, y: Variable, axis: int) -> Variable:
    from chainer.functions.array.broadcast import broadcast_to
    from chainer.functions.array.reshape import reshape

    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f'axis must be an int, not {axis!r}')
    if axis < 0:
        axis += x.ndim
    if not 0 <= axis <= x.ndim - y.ndim or x.shape[axis:axis + y.ndim] != y.shape:
        raise ValueError(f'scale: y of shape {y.shape} does not match x of shape {x.shape} '
                         f'from axis {axis}')
    shape = (1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim)
    return broadcast_to(reshape(y, shape), x.shape)


def scale(x: Any, y: Any, axis: int = 1) -> Variable:
    """Elementwise product ``x * y`` with ``y`` broadcast from ``axis`` (Caffe's scale).

    With ``x`` of shape ``(100, 3, 40, 60)``, ``y`` of shape ``(3, 40)`` and ``axis=1``,
    ``y`` acts as an array of shape ``(1, 3, 40, 1)``.

    Args:
        x: input variable.
        y: variable whose shape equals ``x.shape[axis:axis + y.ndim]``.
        axis: the first axis of ``x`` that ``y`` covers.

    Returns:
        A variable of the shape of ``x``.

    Raises:
        ValueError: when the shapes do not match.
    """
    x = as_variable(x)
    y = as_variable(y)
    return x * _expand(x, y, axis)
