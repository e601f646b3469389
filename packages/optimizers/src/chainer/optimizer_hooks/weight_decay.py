"""WeightDecay: L2 regularization as an optimizer hook."""

from __future__ import annotations

from typing import Any


class WeightDecay:
    """Add ``rate * param`` to each gradient before the update (L2 regularization).

    Register it with ``optimizer.add_hook(WeightDecay(rate))``.

    Args:
        rate: the coefficient of the weight decay.

    Attributes:
        name: ``'WeightDecay'``, the default hook name.
        call_for_each_param: True (called as ``hook(rule, param)``).
        timing: ``'pre'``.
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, rule: Any, param: Any) -> None:
        """Decay the gradient of ``param`` (skipped without data or gradient)."""
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        scale = param._loss_scale
        if scale is not None:
            rate *= scale
        g += rate * p
