"""Lasso: L1 regularization as an optimizer hook."""

from __future__ import annotations

from typing import Any

from chainer import backend


class Lasso:
    """Add ``rate * sign(param)`` to each gradient before the update (L1).

    Args:
        rate: the coefficient of the regularization.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, rule: Any, param: Any) -> None:
        """Regularize the gradient of ``param`` (skipped without data or gradient)."""
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        scale = param._loss_scale
        if scale is not None:
            rate *= scale
        g += rate * backend.get_array_module(p).sign(p)
