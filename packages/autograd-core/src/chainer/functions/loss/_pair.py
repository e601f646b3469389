"""The base of the losses of a pair ``(x0, x1)`` of one float dtype and shape."""

from __future__ import annotations

from typing import Any

from chainer.function_node import FunctionNode
from chainer.utils import type_check


class PairLoss(FunctionNode):
    """A FunctionNode of ``x0`` and ``x1``: float arrays of one dtype and shape.

    Subclasses write ``forward`` and ``backward``; the gradient of ``x1`` is
    minus the one of ``x0`` (:meth:`pair_grads`).
    """

    _type_check_cache_attrs = ()

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x0', 'x1'))
        type_check.expect(in_types[0].dtype.kind == 'f',
                          in_types[0].dtype == in_types[1].dtype,
                          in_types[0].shape == in_types[1].shape)

    @staticmethod
    def pair_grads(gx0: Any, indexes: Any) -> tuple[Any, ...]:
        """``gx0`` for ``x0`` and ``-gx0`` for ``x1``, for the requested ``indexes``."""
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)
