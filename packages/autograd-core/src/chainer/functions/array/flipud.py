"""Flipping an array up/down (reversing its first axis)."""

from __future__ import annotations

from typing import Any

from chainer.functions.array.flip import Flip
from chainer.utils import type_check
from chainer.variable import Variable


class FlipUD(Flip):
    """Reverse the first axis (a view); the input needs at least 1 axes."""

    def __init__(self) -> None:
        super().__init__(0)

    @property
    def label(self) -> str:
        return 'FlipUD'

    def check_type_forward(self, in_types: Any) -> None:
        # as v7 writes it (v7 also took floating-point inputs only; any dtype is taken here)
        type_check.argname(in_types, ('a',))
        type_check.expect(in_types[0].ndim >= 1)


def flipud(a: Any) -> Variable:
    """Flip ``a`` up/down: reverse its first axis (like :func:`numpy.flipud`).

    Args:
        a: a variable or array with at least 1 axes.

    Returns:
        The flipped variable.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` has fewer than 1 axes.
    """
    return FlipUD().apply((a,))[0]
