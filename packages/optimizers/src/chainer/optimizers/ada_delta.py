"""AdaDelta: Zeiler's ADADELTA, with step sizes from running averages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(rho=0.95, eps=1e-6, positive=('eps',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the AdaDelta kernel."""

    rho: float
    one_minus_rho: float
    eps: float


class AdaDeltaRule(_hyperparams.DeclaredRule):
    """Update rule of Zeiler's ADADELTA::

        msg = rho * msg + (1 - rho) * grad * grad
        dx = sqrt((msdx + eps) / (msg + eps)) * grad
        msdx = rho * msdx + (1 - rho) * dx * dx
        param -= dx

    Args:
        parent_hyperparam: hyperparameter to fall back on
            (defaults: ``rho=0.95, eps=1e-6``).
        rho: decay rate of the running averages, set on this rule.
        eps: small value for numerical stability, set on this rule.
    """

    _state_keys = ('msg', 'msdx')
    _n_temps = 2
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 rho: float | None = None, eps: float | None = None) -> None:
        super().__init__(parent_hyperparam, rho=rho, eps=eps)

    def init_state(self, param: Variable) -> None:
        """Allocate the running averages ``msg`` and ``msdx`` (zeros)."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self._live_state['msg'] = xp.zeros_like(arr)
        self._live_state['msdx'] = xp.zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        return _Scalars(rho=hp.rho, one_minus_rho=1 - hp.rho, eps=hp.eps)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        rho, one_minus_rho, eps = s.rho, s.one_minus_rho, s.eps
        msg, msdx = st
        t0, t1 = tmp
        msg *= rho
        numpy.multiply(g, one_minus_rho, out=t0)
        t0 *= g
        msg += t0
        numpy.add(msdx, eps, out=t0)
        numpy.add(msg, eps, out=t1)
        t0 /= t1
        numpy.sqrt(t0, out=t0)
        t0 *= g  # dx
        msdx *= rho
        numpy.multiply(t0, one_minus_rho, out=t1)
        t1 *= t0
        msdx += t1
        p -= t0


class AdaDelta(_hyperparams.DeclaredOptimizer):
    """Zeiler's ADADELTA (https://arxiv.org/abs/1212.5701).

    Args:
        rho: decay rate of the running averages.
        eps: small value for numerical stability.

    Raises:
        ValueError: for an ``eps`` that is not positive.
    """

    _rule_class = AdaDeltaRule

    def __init__(self, rho: float = _default_hyperparam.rho,
                 eps: float = _default_hyperparam.eps) -> None:
        super().__init__(rho=rho, eps=eps)
