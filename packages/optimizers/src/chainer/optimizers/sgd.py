"""SGD: plain stochastic gradient descent."""

from __future__ import annotations

from typing import Any

from chainer import optimizer
from chainer.backends import cuda

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(optimizer.UpdateRule):
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

    def update_core_cpu(self, param: Any) -> None:
        """Apply one step to a NumPy parameter (skipped when it has no gradient)."""
        grad = param.grad
        if grad is None:
            return
        arr = param.array
        arr -= self.hyperparam.lr * grad

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
    """

    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr: float = _default_hyperparam.lr) -> None:
        super().__init__()
        self.hyperparam.lr = lr

    def create_update_rule(self) -> SGDRule:
        """Return an :class:`SGDRule` that follows this optimizer's hyperparameters."""
        return SGDRule(self.hyperparam)
