"""AdaGrad: per-element learning rates from the sum of squared gradients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=0.001, eps=1e-8, non_negative=('lr',), positive=('eps',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the AdaGrad kernel."""

    lr: float
    eps: float


class AdaGradRule(_hyperparams.DeclaredRule):
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
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param: Variable) -> None:
        """Allocate the sum of squared gradients ``h`` (zeros)."""
        arr = param.array
        self._live_state['h'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        return _Scalars(lr=hp.lr, eps=hp.eps)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        h = st[0]
        t0, t1 = tmp
        numpy.multiply(g, g, out=t0)
        h += t0
        numpy.multiply(g, s.lr, out=t0)
        numpy.sqrt(h, out=t1)
        t1 += s.eps
        t0 /= t1
        p -= t0


class AdaGrad(_hyperparams.DeclaredOptimizer):
    """AdaGrad optimizer (Duchi et al., 2011).

    Args:
        lr: learning rate.
        eps: small value for numerical stability.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    _rule_class = AdaGradRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 eps: float = _default_hyperparam.eps) -> None:
        super().__init__(lr=lr, eps=eps)
