"""RMSprop: gradients divided by a running root mean square."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False,
                                  non_negative=('lr',), positive=('eps',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the RMSprop kernel."""

    lr: float
    alpha: float
    one_minus_alpha: float
    eps: float
    eps_inside_sqrt: bool


class RMSpropRule(_hyperparams.DeclaredRule):
    """Update rule of RMSprop::

        ms = alpha * ms + (1 - alpha) * grad * grad
        param -= lr * grad / (sqrt(ms) + eps)       # sqrt(ms + eps) with eps_inside_sqrt

    Args:
        parent_hyperparam: hyperparameter to fall back on (defaults:
            ``lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False``).
        lr, alpha, eps, eps_inside_sqrt: hyperparameters set on this rule.

    Raises:
        ValueError: at the update, when ``eps`` is not zero but rounds to zero in
            the parameter's dtype (``1e-8`` in float16).
    """

    _state_keys = ('ms',)
    _n_temps = 2
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, alpha: float | None = None,
                 eps: float | None = None, eps_inside_sqrt: bool | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)

    def init_state(self, param: Variable) -> None:
        """Allocate the running mean square ``ms`` (zeros)."""
        arr = param.array
        self._live_state['ms'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        eps = hp.eps
        if eps != 0 and numpy.dtype(dtype).type(eps) == 0:
            raise ValueError(
                f'eps of RMSprop optimizer is too small for {numpy.dtype(dtype).name} ({eps})')
        return _Scalars(lr=hp.lr, alpha=hp.alpha, one_minus_alpha=1 - hp.alpha, eps=eps,
                        eps_inside_sqrt=bool(hp.eps_inside_sqrt))

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        ms = st[0]
        t0, t1 = tmp
        ms *= s.alpha
        numpy.multiply(g, s.one_minus_alpha, out=t0)
        t0 *= g
        ms += t0
        if s.eps_inside_sqrt:
            numpy.add(ms, s.eps, out=t1)
            numpy.sqrt(t1, out=t1)
        else:
            numpy.sqrt(ms, out=t1)
            t1 += s.eps
        numpy.multiply(g, s.lr, out=t0)
        t0 /= t1
        p -= t0


class RMSprop(_hyperparams.DeclaredOptimizer):
    """RMSprop optimizer (Tieleman and Hinton).

    Args:
        lr: learning rate.
        alpha: decay rate of the running mean square.
        eps: small value for numerical stability.
        eps_inside_sqrt: add ``eps`` inside the square root.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    _rule_class = RMSpropRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 alpha: float = _default_hyperparam.alpha,
                 eps: float = _default_hyperparam.eps,
                 eps_inside_sqrt: bool = _default_hyperparam.eps_inside_sqrt) -> None:
        super().__init__(lr=lr, alpha=alpha, eps=eps, eps_inside_sqrt=eps_inside_sqrt)
