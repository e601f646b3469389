"""SMORMS3: Simon Funk's squared mean over root mean squared cubed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=0.001, eps=1e-16, non_negative=('lr',), positive=('eps',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the SMORMS3 kernel."""

    lr: float
    eps: float


class SMORMS3Rule(_hyperparams.DeclaredRule):
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
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param: Variable) -> None:
        """Allocate ``mem`` (ones), ``g`` and ``g2`` (zeros)."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self._live_state['mem'] = xp.ones_like(arr)
        self._live_state['g'] = xp.zeros_like(arr)
        self._live_state['g2'] = xp.zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        return _Scalars(lr=hp.lr, eps=hp.eps)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        eps = s.eps
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
        numpy.minimum(x, s.lr, out=t1)
        t1 *= g
        numpy.sqrt(mean2, out=t2)
        t2 += eps
        t1 /= t2
        p -= t1
        numpy.subtract(1, x, out=t1)
        mem *= t1
        mem += 1


class SMORMS3(_hyperparams.DeclaredOptimizer):
    """Simon Funk's SMORMS3.

    Args:
        lr: learning rate.
        eps: small value for numerical stability.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    _rule_class = SMORMS3Rule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 eps: float = _default_hyperparam.eps) -> None:
        super().__init__(lr=lr, eps=eps)
