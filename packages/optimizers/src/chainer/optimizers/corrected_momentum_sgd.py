"""CorrectedMomentumSGD: momentum SGD with the learning rate applied after the momentum."""

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
    """The scalars of the corrected momentum SGD kernel."""

    lr: float
    momentum: float


class CorrectedMomentumSGDRule(_hyperparams.DeclaredRule):
    """Update rule of corrected momentum SGD: ``v = momentum * v - grad; param += lr * v``.

    Unlike :class:`~chainer.optimizers.momentum_sgd.MomentumSGDRule`, the
    velocity does not include the learning rate, so changing ``lr`` during
    training (Goyal et al., 2017) does not rescale the accumulated momentum.

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
        return _Scalars(lr=hp.lr, momentum=hp.momentum)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        v, t0 = st[0], tmp[0]
        v *= s.momentum
        v -= g
        numpy.multiply(v, s.lr, out=t0)
        p += t0


class CorrectedMomentumSGD(_hyperparams.DeclaredOptimizer):
    """Momentum SGD whose velocity excludes the learning rate.

    Args:
        lr: learning rate.
        momentum: momentum coefficient.

    Raises:
        ValueError: for a negative ``lr``.
    """

    _rule_class = CorrectedMomentumSGDRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum) -> None:
        super().__init__(lr=lr, momentum=momentum)
