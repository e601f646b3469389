"""Caffe-style broadcasting elementwise product."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.math._util import broadcast_from_axis
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def scale(x: VariableOrArray, y: VariableOrArray, axis: int = 1) -> Variable:
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
        ValueError: when the shapes do not match (an error that is also an AssertionError,
            as v7 raises one in debug mode).
    """
    x = as_variable(x)
    y = as_variable(y)
    return x * broadcast_from_axis(x, y, axis, 'scale')
