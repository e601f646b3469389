"""RMSprop: gradients divided by a running root mean square."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


class RMSpropRule(_fused_update.ElementwiseRule):
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

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, alpha: float | None = None,
                 eps: float | None = None, eps_inside_sqrt: bool | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        for name, value in (('lr', lr), ('alpha', alpha), ('eps', eps),
                            ('eps_inside_sqrt', eps_inside_sqrt)):
            if value is not None:
                setattr(self.hyperparam, name, value)

    def init_state(self, param: Any) -> None:
        """Allocate the running mean square ``ms`` (zeros)."""
        arr = param.array
        self.state['ms'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> tuple:
        hp = self.hyperparam
        eps = hp.eps
        if eps != 0 and numpy.dtype(dtype).type(eps) == 0:
            raise ValueError(
                f'eps of RMSprop optimizer is too small for {numpy.dtype(dtype).name} ({eps})')
        return hp.lr, hp.alpha, 1 - hp.alpha, eps, bool(hp.eps_inside_sqrt)

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        lr, alpha, one_minus_alpha, eps, inside = s
        ms = st[0]
        t0, t1 = tmp
        ms *= alpha
        numpy.multiply(g, one_minus_alpha, out=t0)
        t0 *= g
        ms += t0
        if inside:
            numpy.add(ms, eps, out=t1)
            numpy.sqrt(t1, out=t1)
        else:
            numpy.sqrt(ms, out=t1)
            t1 += eps
        numpy.multiply(g, lr, out=t0)
        t0 /= t1
        p -= t0


class RMSprop(optimizer.GradientMethod):
    """RMSprop optimizer (Tieleman and Hinton).

    Args:
        lr: learning rate.
        alpha: decay rate of the running mean square.
        eps: small value for numerical stability.
        eps_inside_sqrt: add ``eps`` inside the square root.

    Raises:
        ValueError: for a negative ``lr`` or an ``eps`` that is not positive.
    """

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def __init__(self, lr: float = _default_hyperparam.lr,
                 alpha: float = _default_hyperparam.alpha,
                 eps: float = _default_hyperparam.eps,
                 eps_inside_sqrt: bool = _default_hyperparam.eps_inside_sqrt) -> None:
        super().__init__()
        _checks.non_negative('lr', lr)
        _checks.positive('eps', eps)
        hp = self.hyperparam
        hp.lr = lr
        hp.alpha = alpha
        hp.eps = eps
        hp.eps_inside_sqrt = eps_inside_sqrt

    def create_update_rule(self) -> RMSpropRule:
        """Return a rule following this optimizer's hyperparameters."""
        return RMSpropRule(self.hyperparam)
