"""SMORMS3: Simon Funk's squared mean over root mean squared cubed."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


class SMORMS3Rule(_fused_update.ElementwiseRule):
    """Update rule of SMORMS3::

        r = 1 / (mem + 1)
        g = (1 - r) * g + r * grad
        g2 = (1 - r) * g2 + r * grad * grad
        x = g * g / (g2 + eps)
        param -= grad * min(lr, x) / (sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)

    Args:
        parent_hyperparam: hyperparameter to fall back on
            (defaults: ``lr=0.001, eps=1e-16``).
        lr: learning rate, set on this rule.
        eps: small value for numerical stability, set on this rule.
    """

    _state_keys = ('mem', 'g', 'g2')
    _n_temps = 3

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param: Any) -> None:
        """Allocate ``mem`` (ones), ``g`` and ``g2`` (zeros)."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self.state['mem'] = xp.ones_like(arr)
        self.state['g'] = xp.zeros_like(arr)
        self.state['g2'] = xp.zeros_like(arr)

    def _scalars(self, dtype: Any) -> tuple:
        hp = self.hyperparam
        return hp.lr, hp.eps

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        lr, eps = s
        mem, mean, mean2 = st
        r, t1, t2 = tmp
        numpy.add(mem, 1, out=r)
        numpy.divide(1, r, out=r)
        numpy.subtract(1, r, out=t1)  # 1 - r
        mean *= t1
        numpy.multiply(r, g, out=t2)  # r * grad
        mean += t2
        mean2 *= t1
        t2 *= g
        mean2 += t2
        x = r
        numpy.multiply(mean, mean, out=x)
        numpy.add(mean2, eps, out=t1)
        x /= t1
        numpy.minimum(x, lr, out=t1)
        t1 *= g
        numpy.sqrt(mean2, out=t2)
        t2 += eps
        t1 /= t2
        p -= t1
        numpy.subtract(1, x, out=t1)
        mem *= t1
        mem += 1


class SMORMS3(optimizer.GradientMethod):
    """Simon Funk's SMORMS3.

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

    def create_update_rule(self) -> SMORMS3Rule:
        """Return a rule following this optimizer's hyperparameters."""
        return SMORMS3Rule(self.hyperparam)
