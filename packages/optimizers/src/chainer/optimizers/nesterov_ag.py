"""NesterovAG: Nesterov's accelerated gradient."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class NesterovAGRule(_fused_update.ElementwiseRule):
    """Update rule of Nesterov's accelerated gradient (Sutskever et al. form)::

        v = momentum * v - lr * grad
        param += momentum * momentum * v - (1 + momentum) * lr * grad

    Args:
        parent_hyperparam: hyperparameter to fall back on
            (defaults: ``lr=0.01, momentum=0.9``).
        lr: learning rate, set on this rule.
        momentum: momentum coefficient, set on this rule.
    """

    _state_keys = ('v',)

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, momentum: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param: Any) -> None:
        """Allocate the velocity ``v`` (zeros like the parameter)."""
        arr = param.array
        self.state['v'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> tuple:
        hp = self.hyperparam
        lr, momentum = hp.lr, hp.momentum
        return lr, momentum, momentum * momentum, (1 + momentum) * lr

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        lr, momentum, momentum2, grad_rate = s
        v, t0 = st[0], tmp[0]
        v *= momentum
        numpy.multiply(g, lr, out=t0)
        v -= t0
        numpy.multiply(v, momentum2, out=t0)
        p += t0
        numpy.multiply(g, grad_rate, out=t0)
        p -= t0


class NesterovAG(optimizer.GradientMethod):
    """Nesterov's accelerated gradient.

    Args:
        lr: learning rate.
        momentum: momentum coefficient.

    Raises:
        ValueError: for a negative ``lr``.
    """

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum) -> None:
        super().__init__()
        _checks.non_negative('lr', lr)
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self) -> NesterovAGRule:
        """Return a rule following this optimizer's hyperparameters."""
        return NesterovAGRule(self.hyperparam)
