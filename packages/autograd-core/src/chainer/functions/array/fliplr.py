"""Flipping an array left/right (reversing its second axis)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.array.flip import _FlipFixedAxis
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class FlipLR(_FlipFixedAxis):
    """Reverse the second axis (a view); the input needs at least 2 axes."""

    fixed_axis = 1


@guarded
def fliplr(a: VariableOrArray) -> Variable:
    """Flip ``a`` left/right: reverse its second axis (like :func:`numpy.fliplr`).

    Args:
        a: a variable or array with at least 2 axes.

    Returns:
        The flipped variable.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` has fewer than 2 axes.
    """
    return FlipLR().apply((a,))[0]
