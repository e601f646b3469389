"""Vertical (row-wise) concatenation."""

from __future__ import annotations

from typing import Any

from chainer.functions.array.concat import concat
from chainer.functions.array.hstack import _atleast, _check_inputs
from chainer.variable import Variable


def vstack(xs: Any) -> Variable:
    """Concatenate variables vertically (like :func:`numpy.vstack`).

    Inputs of fewer than two dimensions are treated as rows ``(1, N)``.

    Raises:
        ValueError: for an empty sequence.
        chainer.utils.type_check.InvalidType: on mismatched shapes, ndims or dtypes.
    """
    xs = [_atleast(x, 2) for x in _check_inputs(xs, 'vstack')]
    return concat(xs, axis=0)
