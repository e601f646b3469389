"""Lasso: L1 regularization as an optimizer hook."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.optimizer_hooks._gradient_penalty import GradientPenalty

if TYPE_CHECKING:
    from chainer.types import NdArray


class Lasso(GradientPenalty):
    """Add ``rate * sign(param)`` to each gradient before the update (L1).

    Args:
        rate: the coefficient of the regularization.
    """

    name = 'Lasso'

    def penalty_grad(self, p: NdArray) -> NdArray:
        """``sign(p)``."""
        return backend.get_array_module(p).sign(p)
