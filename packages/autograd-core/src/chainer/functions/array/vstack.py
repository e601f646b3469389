"""Vertical (row-wise) concatenation."""

from __future__ import annotations

from typing import Any

from chainer.functions._composite import CompositeNode
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


class Vstack(CompositeNode):
    """Concatenate the inputs along the first axis, as :func:`vstack`, as one node.

    ``Vstack().apply(xs)`` gives a one-element tuple; each input's gradient is its
    slice of the output gradient.
    """

    @property
    def label(self) -> str:
        return 'Vstack'

    def compute(self, *xs: Variable) -> tuple[Variable, ...]:
        return vstack(list(xs)),
