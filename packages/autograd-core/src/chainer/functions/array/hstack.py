"""Horizontal (column-wise) concatenation."""

from __future__ import annotations

from typing import Any

from chainer.functions.array.concat import concat
from chainer.functions.array.reshape import reshape
from chainer.variable import Variable, as_array


def _atleast(x: Any, ndim: int) -> Any:
    shape = as_array(x).shape
    if len(shape) >= ndim:
        return x
    if ndim == 1:
        new = (1,)
    elif ndim == 2:
        new = (1,) * (2 - len(shape)) + shape
    elif len(shape) == 0:
        new = (1, 1, 1)
    elif len(shape) == 1:
        new = (1, shape[0], 1)
    else:
        new = shape + (1,)
    return reshape(x, new)


def _check_nonempty(xs: Any, name: str) -> list[Any]:
    xs = list(xs)
    if not xs:
        raise ValueError(f'{name} needs at least one input')
    return xs


def hstack(xs: Any) -> Variable:
    """Concatenate variables horizontally (like :func:`numpy.hstack`).

    One-dimensional (and zero-dimensional) inputs are joined along the first
    axis, the others along the second.

    Raises:
        ValueError: for an empty sequence.
        chainer.utils.type_check.InvalidType: on mismatched shapes or dtypes.
    """
    xs = [_atleast(x, 1) for x in _check_nonempty(xs, 'hstack')]
    axis = 0 if as_array(xs[0]).ndim == 1 else 1
    return concat(xs, axis=axis)
