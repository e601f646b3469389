"""AdaGrad: per-element learning rates from the sum of squared gradients."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(_fused_update.ElementwiseRule):
    """Update rule of AdaGrad::

        h += grad * grad
        param -= lr * grad / (sqrt(h) + eps)

    Args:
        parent_hyperparam: hyperparameter to fall back on
            (defaults: ``lr=0.001, eps=1e-8``).
        lr: learning rate, set on this rule.
        eps: small value for numerical stability, set on this rule.
    """

    _state_keys = ('h',)
    _n_temps = 2

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param: Any) -> None:
        """Allocate the sum of squared gradients ``h`` (zeros)."""
        arr = param.array
        self.state['h'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> tuple:
        hp = self.hyperparam
        return hp.lr, hp.eps

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        lr, eps = s
        h = st[0]
        t0, t1 = tmp
        numpy.multiply(g, g, out=t0)
        h += t0
        numpy.multiply(g, lr, out=t0)
        numpy.sqrt(h, out=t1)
        t1 += eps
        t0 /= t1
        p -= t0


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad optimizer (Duchi et al., 2011).

    Args:
        lr: learning rate.
        eps: small value for numerical stability.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr: float = _default_hyperparam.lr,
                 eps: float = _default_hyperparam.eps) -> None:
        super().__init__()
        _checks.non_negative('lr', lr)
        _checks.positive('eps', eps)
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    def create_update_rule(self) -> AdaGradRule:
        """Return a rule following this optimizer's hyperparameters."""
        return AdaGradRule(self.hyperparam)
