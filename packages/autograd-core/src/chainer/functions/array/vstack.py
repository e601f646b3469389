"""Vertical (row-wise) concatenation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.array.concat import concat
from chainer.functions.array.hstack import _joinable_inputs, _StackNode
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import VariableOrArray


@guarded
def vstack(xs: Sequence[VariableOrArray]) -> Variable:
    """Concatenate variables vertically (like :func:`numpy.vstack`).

    Inputs of fewer than two dimensions are treated as rows ``(1, N)``.

    Raises:
        ValueError: for an empty sequence.
        chainer.utils.type_check.InvalidType: on mismatched shapes, ndims or dtypes.
    """
    return concat(_joinable_inputs(xs, 'vstack'), axis=0)


class Vstack(_StackNode):
    """Concatenate the inputs along the first axis, as :func:`vstack`, as one node.

    ``Vstack().apply(xs)`` gives a one-element tuple; each input's gradient is its
    slice of the output gradient.
    """

    _function = staticmethod(vstack)
