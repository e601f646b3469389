"""WeightDecay: L2 regularization as an optimizer hook."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.optimizer_hooks._gradient_penalty import GradientPenalty

if TYPE_CHECKING:
    from chainer.types import NdArray


class WeightDecay(GradientPenalty):
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

    def penalty_grad(self, p: NdArray) -> NdArray:
        """``p`` itself."""
        return p
