"""GradientLARS: layer-wise adaptive rate scaling of each gradient."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import UpdateRule
    from chainer.variable import Variable


class GradientLARS:
    """Scale each gradient by its layer-wise trust ratio (You et al., LARS).

    For each parameter ``p`` with gradient ``g`` (``weight_decay`` added as
    L2 regularization)::

        rate = |p| / (eps + |g| + weight_decay * |p|)
        g = (g + weight_decay * p) * (rate if rate > threshold else 1)

    where ``|.|`` is the L2 norm (https://arxiv.org/abs/1708.03888).

    Args:
        threshold: the smallest ratio used as a rate (smaller ones give 1).
        weight_decay: the L2 regularization coefficient.
        eps: small value for numerical stability.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold: float = 1e-2, weight_decay: float = 0.0,
                 eps: float = 1e-9) -> None:
        self.threshold = py_number(threshold)
        self.weight_decay = py_number(weight_decay)
        self.eps = py_number(eps)

    def __call__(self, rule: UpdateRule, param: Variable) -> None:
        """Rescale the gradient of ``param`` in place (skipped without data or gradient)."""
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        scale = param._loss_scale or 1.0
        xp = backend.get_array_module(p)
        p_norm = float(xp.linalg.norm(p))
        g_norm = float(xp.linalg.norm(g)) / scale
        rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        if self.weight_decay != 0:
            g += (self.weight_decay * scale) * p
        if rate > self.threshold:
            g *= rate
