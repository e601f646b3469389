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

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> import chainer.links as L
        >>> from chainer import optimizer_hooks, optimizers
        >>> model = L.Linear(2, 1, initialW=np.ones((1, 2), np.float32), nobias=True)
        >>> opt = optimizers.SGD(lr=0.1)
        >>> opt.setup(model)
        <chainer.optimizers.sgd.SGD object at 0x...>
        >>> opt.add_hook(optimizer_hooks.WeightDecay(rate=0.1))
        >>> opt.update(lambda: F.sum(model(np.array([[1., 2.]], np.float32))))
        >>> model.W.array
        array([[0.89, 0.79]], dtype=float32)
    """

    name = 'WeightDecay'

    def penalty_grad(self, p: NdArray) -> NdArray:
        """``p`` itself."""
        return p
