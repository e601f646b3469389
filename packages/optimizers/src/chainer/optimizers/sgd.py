"""SGD: plain stochastic gradient descent."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import optimizer
from chainer.backends import cuda
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(_fused_update.ElementwiseRule):
    """Update rule of SGD: ``param -= lr * grad``.

    Args:
        parent_hyperparam: hyperparameter to fall back on (defaults: ``lr=0.01``).
        lr: learning rate, set on this rule.
    """

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr

    def _scalars(self, dtype: Any) -> tuple:
        return (self.hyperparam.lr,)

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        t0 = tmp[0]
        numpy.multiply(g, s[0], out=t0)
        p -= t0

    def update_core_gpu(self, param: Any) -> None:
        """Apply one step to a CuPy parameter with one fused kernel."""
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise('T grad, T lr', 'T param', 'param -= lr * grad',
                         'chainer_sgd')(grad, self.hyperparam.lr, param.array)


class SGD(optimizer.GradientMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr: learning rate.

    Raises:
        ValueError: for a negative ``lr``.
    """

    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr: float = _default_hyperparam.lr) -> None:
        super().__init__()
        _checks.non_negative('lr', lr)
        self.hyperparam.lr = lr

    def create_update_rule(self) -> SGDRule:
        """Return an :class:`SGDRule` that follows this optimizer's hyperparameters."""
        return SGDRule(self.hyperparam)
