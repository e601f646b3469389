"""MomentumSGD: stochastic gradient descent with (classical) momentum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, internal, optimizer
from chainer.optimizers import _cuda_update, _hyperparams, _jit_kernels

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(lr=0.01, momentum=0.9, non_negative=('lr',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the momentum SGD kernels."""

    lr: float
    momentum: float
    jit: bool = False
    """Whether the compiled kernel runs (decided once per step, on the calling thread)."""


class MomentumSGDRule(_hyperparams.DeclaredRule):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

    Args:
        parent_hyperparam: hyperparameter to fall back on
            (defaults: ``lr=0.01, momentum=0.9``).
        lr: learning rate, set on this rule.
        momentum: momentum coefficient, set on this rule.
    """

    _state_keys = ('v',)
    _table = _HYPERPARAMS
    _cuda_step = _cuda_update.CudaStep('v = momentum * v - lr * grad; param += v;',
                                       ('lr', 'momentum'), 'chainer_momentum_sgd')

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None, momentum: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param: Variable) -> None:
        """Allocate the velocity ``v`` (zeros like the parameter)."""
        arr = param.array
        self._live_state['v'] = backend.get_array_module(arr).zeros_like(arr)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        return _Scalars(lr=hp.lr, momentum=hp.momentum,
                        jit=numpy.dtype(dtype) in internal.jit_dtypes and internal.jit_enabled())

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        if s.jit and p.ndim == 1 and type(p) is numpy.ndarray and p.flags.c_contiguous:
            dt = p.dtype.type
            _jit_kernels.momentum_sgd_step(p, g, st[0], dt(s.lr), dt(s.momentum))
            return
        v, t0 = st[0], tmp[0]
        v *= s.momentum
        numpy.multiply(g, s.lr, out=t0)
        v -= t0
        p += v


class MomentumSGD(_hyperparams.DeclaredOptimizer):
    """Momentum SGD.

    Args:
        lr: learning rate.
        momentum: momentum coefficient.

    Raises:
        ValueError: for a negative ``lr``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> import chainer.links as L
        >>> from chainer import optimizers
        >>> model = L.Linear(2, 1, initialW=np.ones((1, 2), np.float32), nobias=True)
        >>> opt = optimizers.MomentumSGD(lr=0.1, momentum=0.9)
        >>> opt.setup(model)
        <chainer.optimizers.momentum_sgd.MomentumSGD object at 0x...>
        >>> x = np.array([[1., 2.]], np.float32)
        >>> for _ in range(2):
        ...     opt.update(lambda: F.sum(model(x)))
        >>> model.W.array
        array([[0.71      , 0.42000002]], dtype=float32)
    """

    _rule_class = MomentumSGDRule

    def __init__(self, lr: float = _default_hyperparam.lr,
                 momentum: float = _default_hyperparam.momentum) -> None:
        super().__init__(lr=lr, momentum=momentum)
