"""MSVAG: M-SVAG, momentum SGD with variance-adapted element-wise step factors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _hyperparams

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0,
                                  non_negative=('lr',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the M-SVAG kernel at step ``t`` (``correction = 1 - beta ** t``)."""

    one_minus_beta: float
    correction: float
    rho: float
    one_minus_rho: float
    lr: float
    eta: float
    weight_decay_rate: float

_RHO_MAX = 0.9999


_last_power: dict[float, tuple[int, float]] = {}


def _beta_power(beta: float, t: int) -> float:
    """``beta ** t`` as the product ``beta * beta * ...`` (as Chainer v7 rounds it).

    The last power of each ``beta`` is kept, so that step after step costs one
    multiplication.
    """
    last = _last_power.get(beta)
    if last is not None and last[0] == t:
        return last[1]
    if last is not None and last[0] == t - 1:
        power = last[1] * beta
    else:
        power = 1.0
        for _ in range(t):
            power *= beta
    if len(_last_power) > 64:
        _last_power.clear()
    _last_power[beta] = (t, power)
    return power


def _rho(beta: float, beta_t: float) -> float:
    """The variance correction of M-SVAG for ``beta_t = beta ** t`` (kept below 1)."""
    rho = ((1 - beta) ** 2) * (1 - beta_t * beta_t) / ((1 - beta * beta) * (1 - beta_t) ** 2)
    return min(rho, _RHO_MAX)


class MSVAGRule(_hyperparams.DeclaredRule):
    """Update rule of M-SVAG (Balles and Hennig, https://arxiv.org/abs/1705.07774)::

        m += (1 - beta) * (grad - m);  v += (1 - beta) * (grad * grad - v)
        mt = m / (1 - beta ** t);  vt = v / (1 - beta ** t)
        s = (vt - mt ** 2) / (1 - rho)
        factor = clip(mt ** 2 / (mt ** 2 + rho * s), 0, 1)   # 0 where undefined
        param -= eta * (lr * mt * factor + weight_decay_rate * param)

    where ``rho`` is the variance correction of step ``t`` (at most 0.9999).

    Args:
        parent_hyperparam: hyperparameter to fall back on (defaults:
            ``lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0``).
        lr, beta, eta, weight_decay_rate: hyperparameters set on this rule.
    """

    _state_keys = ('m', 'v')
    _n_temps = 3
    _table = _HYPERPARAMS

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, beta: float | None = None,
                 eta: float | None = None, weight_decay_rate: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)

    @property
    def beta_power(self) -> float:
        """``beta ** (t + 1)``: the bias correction factor of the next step."""
        return _beta_power(self.hyperparam.beta, self.t + 1)

    def init_state(self, param: Variable) -> None:
        """Allocate the running moments ``m`` and ``v`` (zeros)."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self._live_state['m'] = xp.zeros_like(arr)
        self._live_state['v'] = xp.zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        beta = hp.beta
        beta_t = _beta_power(beta, self.t)
        rho = _rho(beta, beta_t)
        return _Scalars(one_minus_beta=1 - beta, correction=1 - beta_t, rho=rho,
                        one_minus_rho=1 - rho, lr=hp.lr, eta=hp.eta,
                        weight_decay_rate=hp.weight_decay_rate)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        one_minus_beta, correction = s.one_minus_beta, s.correction
        m, v = st
        t0, t1, t2 = tmp
        numpy.subtract(g, m, out=t0)
        t0 *= one_minus_beta
        m += t0
        numpy.multiply(g, g, out=t0)
        t0 -= v
        t0 *= one_minus_beta
        v += t0
        numpy.divide(m, correction, out=t0)  # mt
        numpy.divide(v, correction, out=t1)  # vt
        numpy.multiply(t0, t0, out=t2)  # mt ** 2
        t1 -= t2
        t1 /= s.one_minus_rho  # s
        t1 *= s.rho
        t1 += t2
        t2 /= t1
        numpy.clip(t2, 0, 1, out=t2)  # factor
        numpy.copyto(t2, 0, where=numpy.isnan(t2))
        t0 *= s.lr
        t0 *= t2
        if s.weight_decay_rate != 0:
            numpy.multiply(p, s.weight_decay_rate, out=t1)
            t0 += t1
        t0 *= s.eta
        p -= t0


class MSVAG(_hyperparams.DeclaredOptimizer):
    """M-SVAG optimizer.

    Args:
        lr: learning rate.
        beta: decay rate of the running moments.
        eta: schedule multiplier (for learning-rate schedules).
        weight_decay_rate: decoupled weight decay rate.

    Raises:
        ValueError: for a negative ``lr``.
    """

    _rule_class = MSVAGRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 beta: float = _default_hyperparam.beta,
                 eta: float = _default_hyperparam.eta,
                 weight_decay_rate: float = _default_hyperparam.weight_decay_rate) -> None:
        super().__init__(lr=lr, beta=beta, eta=eta, weight_decay_rate=weight_decay_rate)
