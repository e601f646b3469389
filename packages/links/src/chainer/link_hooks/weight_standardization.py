"""WeightStandardization: standardizes each output unit's weights in the forward pass."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link_hooks._weight_hook import WeightHook

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.variable import Variable


class WeightStandardization(WeightHook):
    """Weight standardization (Qiao et al., 2019) as a link hook.

    While the link runs, its weight is replaced by
    ``(W - mean) / sqrt(var + eps)``, the statistics taken over every axis but
    the first (per output unit of a Linear or a convolution). Register it with
    ``link.add_hook(WeightStandardization())``.

    Args:
        eps: added to the variance.
        weight_name: the name of the weight parameter.
        name: the hook's registration name.
    """

    name = 'WeightStandardization'

    def __init__(self, *, eps: float = 1e-5, weight_name: str = 'W',
                 name: str | None = None) -> None:
        super().__init__(weight_name, name)
        self.eps = eps

    def transform(self, link: Link, weight: Variable) -> Variable:
        """The standardized weight."""
        axes = tuple(range(1, weight.ndim))
        mean = functions.mean(weight, axis=axes, keepdims=True)
        centered = weight - functions.broadcast_to(mean, weight.shape)
        var = functions.mean(centered * centered, axis=axes, keepdims=True)
        std = functions.sqrt(var + self.eps)
        return centered / functions.broadcast_to(std, weight.shape)
