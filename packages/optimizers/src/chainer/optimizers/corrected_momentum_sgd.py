"""CorrectedMomentumSGD: momentum SGD with the learning rate applied after the momentum."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, optimizer
from chainer.optimizers import _checks, _fused_update

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(_fused_update.ElementwiseRule):
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

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, momentum: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param: Any) -> None:
        """Allocate the velocity ``v`` (zeros like the parameter)."""
        arr = param.array
        self.state['v'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> tuple:
        hp = self.hyperparam
        return hp.lr, hp.momentum

    @staticmethod
    def _kernel(s: tuple, p: Any, g: Any, st: Any, tmp: Any) -> None:
        lr, momentum = s
        v, t0 = st[0], tmp[0]
        v *= momentum
        v -= g
        numpy.multiply(v, lr, out=t0)
        p += t0


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD whose velocity excludes the learning rate.

    Args:
        lr: learning rate.
        momentum: momentum coefficient.

    Raises:
        ValueError: for a negative ``lr``.
    """

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum) -> None:
        super().__init__()
        _checks.non_negative('lr', lr)
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self) -> CorrectedMomentumSGDRule:
        """Return a rule following this optimizer's hyperparameters."""
        return CorrectedMomentumSGDRule(self.hyperparam)
