"""Lasso: L1 regularization as an optimizer hook."""

from __future__ import annotations

from typing import Any

from chainer import backend
from chainer.optimizer_hooks._gradient_penalty import GradientPenalty


class Lasso(GradientPenalty):
    """Add ``rate * sign(param)`` to each gradient before the update (L1).

    Args:
        rate: the coefficient of the regularization.
    """

    name = 'Lasso'

    def penalty_grad(self, p: Any) -> Any:
        """``sign(p)``."""
        return backend.get_array_module(p).sign(p)
