"""Flipping an array up/down (reversing its first axis)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.array.flip import _FlipFixedAxis
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class FlipUD(_FlipFixedAxis):
    """Reverse the first axis (a view); the input needs at least 1 axes."""

    fixed_axis = 0


@guarded
def flipud(a: VariableOrArray) -> Variable:
    """Flip ``a`` up/down: reverse its first axis (like :func:`numpy.flipud`).

    Args:
        a: a variable or array with at least 1 axes.

    Returns:
        The flipped variable.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` has fewer than 1 axes.
    """
    return FlipUD().apply((a,))[0]
