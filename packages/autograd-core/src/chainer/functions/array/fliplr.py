"""Flipping an array left/right (reversing its second axis)."""

from __future__ import annotations

from typing import Any

from chainer.functions.array.flip import Flip
from chainer.utils import type_check
from chainer.variable import Variable


class FlipLR(Flip):
    """Reverse the second axis (a view); the input needs at least 2 axes."""

    def __init__(self) -> None:
        super().__init__(1)

    @property
    def label(self) -> str:
        return 'FlipLR'

    def check_type_forward(self, in_types: Any) -> None:
        # as v7 writes it (v7 also took floating-point inputs only; any dtype is taken here)
        type_check.argname(in_types, ('a',))
        type_check.expect(in_types[0].ndim >= 2)


def fliplr(a: Any) -> Variable:
    """Flip ``a`` left/right: reverse its second axis (like :func:`numpy.fliplr`).

    Args:
        a: a variable or array with at least 2 axes.

    Returns:
        The flipped variable.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` has fewer than 2 axes.
    """
    return FlipLR().apply((a,))[0]
