"""Depth-wise concatenation (along the third axis)."""

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
def dstack(xs: Sequence[VariableOrArray]) -> Variable:
    """Concatenate variables along the third axis (like :func:`numpy.dstack`).

    A 1-D input ``(N,)`` is treated as ``(1, N, 1)``, a 2-D input ``(M, N)``
    as ``(M, N, 1)``.

    Raises:
        ValueError: for an empty sequence.
        chainer.utils.type_check.InvalidType: on mismatched shapes, ndims or dtypes.
    """
    return concat(_joinable_inputs(xs, 'dstack'), axis=2)


class Dstack(_StackNode):
    """Concatenate the inputs along the third axis, as :func:`dstack`, as one node.

    ``Dstack().apply(xs)`` gives a one-element tuple; each input's gradient is its
    slice of the output gradient.
    """

    _function = staticmethod(dstack)
