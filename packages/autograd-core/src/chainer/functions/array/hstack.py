"""Horizontal (column-wise) concatenation."""

from __future__ import annotations

from typing import Any

from chainer.functions._composite import CompositeNode
from chainer.functions.array.concat import concat
from chainer.functions.array.reshape import reshape
from chainer.utils import type_check
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


def _check_inputs(xs: Any, name: str) -> list[Any]:
    """``xs`` as a list; ValueError when empty, InvalidType for inputs of different ndim."""
    xs = list(xs)
    if not xs:
        raise ValueError(f'{name} needs at least one input')
    ndims = [as_array(x).ndim for x in xs]
    if any(n != ndims[0] for n in ndims):
        err = type_check.InvalidType(
            'all inputs have the same ndim', f'ndims {ndims}',
            f'{name} needs inputs of the same number of dimensions, got {ndims}')
        err._context = name.capitalize()
        raise err
    return xs


def hstack(xs: Any) -> Variable:
    """Concatenate variables horizontally (like :func:`numpy.hstack`).

    One-dimensional (and zero-dimensional) inputs are joined along the first
    axis, the others along the second.

    Raises:
        ValueError: for an empty sequence.
        chainer.utils.type_check.InvalidType: on mismatched shapes, ndims or dtypes.
    """
    xs = [_atleast(x, 1) for x in _check_inputs(xs, 'hstack')]
    axis = 0 if as_array(xs[0]).ndim == 1 else 1
    return concat(xs, axis=axis)


class Hstack(CompositeNode):
    """Concatenate the inputs along the second axis (the first for 1-D inputs) as one node.

    The node form of :func:`hstack`.

    ``Hstack().apply(xs)`` gives a one-element tuple; each input's gradient is its
    slice of the output gradient.
    """

    @property
    def label(self) -> str:
        return 'Hstack'

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        return hstack(list(xs)),
