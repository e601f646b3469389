"""SGD: plain stochastic gradient descent."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy

from chainer import optimizer
from chainer.optimizers import _cuda_update, _hyperparams

_HYPERPARAMS = _hyperparams.Table(lr=0.01, non_negative=('lr',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the SGD kernels."""

    lr: float


class SGDRule(_hyperparams.DeclaredRule):
    """Update rule of SGD: ``param -= lr * grad``.

    Args:
        parent_hyperparam: hyperparameter to fall back on (defaults: ``lr=0.01``).
        lr: learning rate, set on this rule.
    """

    _table = _HYPERPARAMS
    _cuda_step = _cuda_update.CudaStep('param -= lr * grad', ('lr',), 'chainer_sgd')

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 lr: float | None = None) -> None:
        super().__init__(parent_hyperparam, lr=lr)

    def _scalars(self, dtype: Any) -> _Scalars:
        return _Scalars(lr=self.hyperparam.lr)

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        t0 = tmp[0]
        numpy.multiply(g, s.lr, out=t0)
        p -= t0


class SGD(_hyperparams.DeclaredOptimizer):
    """Vanilla stochastic gradient descent.

    Args:
        lr: learning rate.

    Raises:
        ValueError: for a negative ``lr``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> import chainer.links as L
        >>> from chainer import optimizers
        >>> model = L.Linear(2, 1, initialW=np.ones((1, 2), np.float32), nobias=True)
        >>> opt = optimizers.SGD(lr=0.1)
        >>> opt.setup(model)
        <chainer.optimizers.sgd.SGD object at 0x...>
        >>> x = np.array([[1., 2.]], np.float32)
        >>> opt.update(lambda: F.sum(model(x)))
        >>> model.W.array
        array([[0.9, 0.8]], dtype=float32)
    """

    _rule_class = SGDRule

    def __init__(self, lr: float = _default_hyperparam.lr) -> None:
        super().__init__(lr=lr)
