"""NesterovAG: Nesterov's accelerated gradient."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=0.01, momentum=0.9, non_negative=('lr',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the Nesterov kernel (``grad_rate = (1 + momentum) * lr``)."""

    lr: float
    momentum: float
    momentum2: float
    grad_rate: float


class NesterovAGRule(_hyperparams.DeclaredRule):
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
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, momentum: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param: Variable) -> None:
        """Allocate the velocity ``v`` (zeros like the parameter)."""
        arr = param.array
        self._live_state['v'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        lr, momentum = hp.lr, hp.momentum
        return _Scalars(lr=lr, momentum=momentum, momentum2=momentum * momentum,
                        grad_rate=(1 + momentum) * lr)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        v, t0 = st[0], tmp[0]
        v *= s.momentum
        numpy.multiply(g, s.lr, out=t0)
        v -= t0
        numpy.multiply(v, s.momentum2, out=t0)
        p += t0
        numpy.multiply(g, s.grad_rate, out=t0)
        p -= t0


class NesterovAG(_hyperparams.DeclaredOptimizer):
    """Nesterov's accelerated gradient.

    Args:
        lr: learning rate.
        momentum: momentum coefficient.

    Raises:
        ValueError: for a negative ``lr``.
    """

    _rule_class = NesterovAGRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum) -> None:
        super().__init__(lr=lr, momentum=momentum)
