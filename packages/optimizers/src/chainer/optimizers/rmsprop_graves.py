"""RMSpropGraves: Alex Graves's RMSprop, with a centred second moment and momentum."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(_fused_update.ElementwiseRule):
    """Update rule of Graves's RMSprop (https://arxiv.org/abs/1308.0850)::

        n = alpha * n + (1 - alpha) * grad * grad
        g = alpha * g + (1 - alpha) * grad
        delta = momentum * delta - lr * grad / sqrt(n - g * g + eps)
        param += delta

    Args:
        parent_hyperparam: hyperparameter to fall back on (defaults:
            ``lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4``).
        lr, alpha, momentum, eps: hyperparameters set on this rule.
    """

    _state_keys = ('n', 'g', 'delta')
    _n_temps = 2

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, alpha: float | None = None,
                 momentum: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        for name, value in (('lr', lr), ('alpha', alpha), ('momentum', momentum),
                            ('eps', eps)):
            if value is not None:
                setattr(self.hyperparam, name, value)

    def init_state(self, param: Any) -> None:
        """Allocate ``n``, ``g`` and ``delta`` (zeros)."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self.state['n'] = xp.zeros_like(arr)
        self.state['g'] = xp.zeros_like(arr)
        self.state['delta'] = xp.zeros_like(arr)

    def _scalars(self, dtype: Any) -> tuple:
        hp = self.hyperparam
        return hp.lr, hp.alpha, 1 - hp.alpha, hp.momentum, hp.eps

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        lr, alpha, one_minus_alpha, momentum, eps = s
        n, mean, delta = st
        t0, t1 = tmp
        n *= alpha
        numpy.multiply(g, one_minus_alpha, out=t0)
        t0 *= g
        n += t0
        mean *= alpha
        numpy.multiply(g, one_minus_alpha, out=t0)
        mean += t0
        delta *= momentum
        numpy.multiply(mean, mean, out=t1)
        numpy.subtract(n, t1, out=t1)
        t1 += eps
        numpy.sqrt(t1, out=t1)
        numpy.multiply(g, lr, out=t0)
        t0 /= t1
        delta -= t0
        p += delta


class RMSpropGraves(optimizer.GradientMethod):
    """Alex Graves's RMSprop.

    Args:
        lr: learning rate.
        alpha: decay rate of the running moments.
        momentum: momentum coefficient.
        eps: small value for numerical stability.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr: float = _default_hyperparam.lr,
                 alpha: float = _default_hyperparam.alpha,
                 momentum: float = _default_hyperparam.momentum,
                 eps: float = _default_hyperparam.eps) -> None:
        super().__init__()
        _checks.non_negative('lr', lr)
        _checks.positive('eps', eps)
        hp = self.hyperparam
        hp.lr = lr
        hp.alpha = alpha
        hp.momentum = momentum
        hp.eps = eps

    def create_update_rule(self) -> RMSpropGravesRule:
        """Return a rule following this optimizer's hyperparameters."""
        return RMSpropGravesRule(self.hyperparam)
