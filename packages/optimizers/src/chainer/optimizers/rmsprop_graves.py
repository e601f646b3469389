"""RMSpropGraves: Alex Graves's RMSprop, with a centred second moment and momentum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4,
                                  non_negative=('lr',), positive=('eps',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the RMSpropGraves kernel."""

    lr: float
    alpha: float
    one_minus_alpha: float
    momentum: float
    eps: float


class RMSpropGravesRule(_hyperparams.DeclaredRule):
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
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, alpha: float | None = None,
                 momentum: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, momentum=momentum, eps=eps)

    def init_state(self, param: Variable) -> None:
        """Allocate ``n``, ``g`` and ``delta`` (zeros)."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self._live_state['n'] = xp.zeros_like(arr)
        self._live_state['g'] = xp.zeros_like(arr)
        self._live_state['delta'] = xp.zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        return _Scalars(lr=hp.lr, alpha=hp.alpha, one_minus_alpha=1 - hp.alpha,
                        momentum=hp.momentum, eps=hp.eps)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        n, mean, delta = st
        t0, t1 = tmp
        n *= s.alpha
        numpy.multiply(g, s.one_minus_alpha, out=t0)
        t0 *= g
        n += t0
        mean *= s.alpha
        numpy.multiply(g, s.one_minus_alpha, out=t0)
        mean += t0
        delta *= s.momentum
        numpy.multiply(mean, mean, out=t1)
        numpy.subtract(n, t1, out=t1)
        t1 += s.eps
        numpy.sqrt(t1, out=t1)
        numpy.multiply(g, s.lr, out=t0)
        t0 /= t1
        delta -= t0
        p += delta


class RMSpropGraves(_hyperparams.DeclaredOptimizer):
    """Alex Graves's RMSprop.

    Args:
        lr: learning rate.
        alpha: decay rate of the running moments.
        momentum: momentum coefficient.
        eps: small value for numerical stability.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    _rule_class = RMSpropGravesRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 alpha: float = _default_hyperparam.alpha,
                 momentum: float = _default_hyperparam.momentum,
                 eps: float = _default_hyperparam.eps) -> None:
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)
