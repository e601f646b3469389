"""Adam and its variants (AdamW, AMSGrad, AdaBound, AMSBound)."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy

from chainer import backend, internal, optimizer
from chainer.optimizers import _cuda_update, _hyperparams, _jit_kernels

if TYPE_CHECKING:
    from chainer.variable import Variable

_HYPERPARAMS = _hyperparams.Table(
    alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0,
    amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3,
    non_negative=('alpha',), positive=('eps',))
_default_hyperparam = _HYPERPARAMS.defaults


class _Scalars(NamedTuple):
    """The scalars of the Adam kernels at step ``t``.

    ``alpha_t`` is the bias-corrected step size; ``bounds`` the AdaBound
    ``(lower, upper)`` bounds of the step, or None without AdaBound.
    """

    one_minus_beta1: float
    one_minus_beta2: float
    eps: float
    alpha_t: float
    eta: float
    weight_decay_rate: float
    amsgrad: bool
    bounds: tuple[float, float] | None
    jit: bool = False
    """Whether the compiled kernel runs (decided once per step, on the calling thread)."""


def _learning_rate(hp: optimizer.Hyperparameter, t: int) -> float:
    if t == 0:
        raise RuntimeError(
            "Can't determine the learning rate of Adam optimizer because the update steps "
            'have not been started.')
    fix1 = 1.0 - math.pow(hp.beta1, t)
    fix2 = 1.0 - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


def _intermediate_dtype(dtype: Any) -> Any:
    # float16 parameters are updated in float32 to keep precision.
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else numpy.dtype(dtype)


class AdamRule(_hyperparams.DeclaredRule):
    """Update rule of Adam (with the AdamW, AMSGrad and AdaBound options).

    With ``m`` and ``v`` the running means of the gradient and its square::

        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad * grad - v)
        vhat = max(vhat, v) if amsgrad else v
        step = alpha_t / (sqrt(vhat) + eps)   # clipped into the bounds with AdaBound
        param = (1 - eta * weight_decay_rate) * param - eta * (step * m)

    where ``alpha_t = alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)``. The
    arithmetic of float16 parameters is done in float32.

    Args:
        parent_hyperparam: hyperparameter to fall back on (the Adam defaults).
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad, adabound,
        final_lr, gamma: hyperparameters set on this rule.
    """

    _table = _HYPERPARAMS
    _cuda_step = _cuda_update.CudaStep(
        '''m += one_minus_beta1 * (grad - m);
           v += one_minus_beta2 * (grad * grad - v);
           param = (1 - eta * weight_decay_rate) * param
                   - eta * (alpha_t / (sqrt(v) + eps) * m);''',
        ('alpha_t', 'one_minus_beta1', 'one_minus_beta2', 'eps', 'eta', 'weight_decay_rate'),
        'chainer_adam')

    def __init__(self, parent_hyperparam: optimizer.Hyperparameter | None = None,
                 alpha: float | None = None, beta1: float | None = None,
                 beta2: float | None = None, eps: float | None = None,
                 eta: float | None = None, weight_decay_rate: float | None = None,
                 amsgrad: bool | None = None, adabound: bool | None = None,
                 final_lr: float | None = None, gamma: float | None = None) -> None:
        super().__init__(parent_hyperparam, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                         adabound=adabound, final_lr=final_lr, gamma=gamma)
        self.initial_alpha: float | None = None

    def init_state(self, param: Variable) -> None:
        """Allocate ``m``, ``v`` (and ``vhat`` with AMSGrad) as zeros."""
        arr = param.array
        xp = backend.get_array_module(arr)
        self._live_state['m'] = xp.zeros_like(arr)
        self._live_state['v'] = xp.zeros_like(arr)
        if self.hyperparam.amsgrad:
            self._live_state['vhat'] = xp.zeros_like(arr)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size of the current step."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn('AdamRule.lr has been renamed to AdamRule.alpha_t. '
                      'Use of AdamRule.lr is deprecated in Chainer v6.', DeprecationWarning)
        return self.alpha_t

    @property
    def bounds(self) -> tuple[float, float]:
        """The AdaBound ``(lower, upper)`` bounds of the step at the current step.

        They converge to ``final_lr`` scaled by ``alpha / initial_alpha`` (the
        ``alpha`` of the first step), so a schedule on ``alpha`` moves them too.
        """
        hp = self.hyperparam
        if self.initial_alpha is None:
            self.initial_alpha = hp.alpha
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper

    def _kernel_state_keys(self) -> tuple[str, ...]:
        return ('m', 'v', 'vhat') if self.hyperparam.amsgrad else ('m', 'v')

    def _fusion_token(self) -> Any:
        if self.hyperparam.adabound:
            if self.initial_alpha is None:
                self.initial_alpha = self.hyperparam.alpha
            return self.initial_alpha
        return None

    def _temp_dtypes(self, dtype: Any) -> tuple:
        interm = _intermediate_dtype(dtype)
        if interm != dtype:  # a float32 copy of the float16 gradient
            return (interm, interm)
        return (interm,)

    def _scalars(self, dtype: Any) -> _Scalars:
        hp = self.hyperparam
        plain = not hp.amsgrad and not hp.adabound
        return _Scalars(one_minus_beta1=1 - hp.beta1, one_minus_beta2=1 - hp.beta2,
                        eps=hp.eps, alpha_t=self.alpha_t, eta=hp.eta,
                        weight_decay_rate=hp.weight_decay_rate, amsgrad=bool(hp.amsgrad),
                        bounds=self.bounds if hp.adabound else None,
                        jit=plain and numpy.dtype(dtype) in internal.jit_dtypes
                        and internal.jit_enabled())

    @staticmethod
    def _kernel(s: _Scalars, p: Any, g: Any, st: Any, tmp: Any) -> None:
        if s.jit and p.ndim == 1 and type(p) is numpy.ndarray and p.flags.c_contiguous:
            dt = p.dtype.type
            _jit_kernels.adam_step(p, g, st[0], st[1], dt(s.one_minus_beta1),
                                   dt(s.one_minus_beta2), dt(s.eps), dt(s.alpha_t), dt(s.eta),
                                   dt(1 - s.eta * s.weight_decay_rate))
            return
        t0 = tmp[0]
        if len(tmp) > 1:  # float16: the arithmetic in float32
            numpy.copyto(tmp[1], g)
            g = tmp[1]
        m, v = st[0], st[1]
        numpy.subtract(g, m, out=t0)
        t0 *= s.one_minus_beta1
        m += t0
        numpy.multiply(g, g, out=t0)
        t0 -= v
        t0 *= s.one_minus_beta2
        v += t0
        if s.amsgrad:
            vhat = st[2]
            numpy.maximum(vhat, v, out=vhat)
        else:
            vhat = v
        numpy.sqrt(vhat, out=t0, dtype=t0.dtype)
        t0 += s.eps
        numpy.divide(s.alpha_t, t0, out=t0)  # the step size
        bounds = s.bounds
        if bounds is not None:
            numpy.clip(t0, bounds[0], bounds[1], out=t0)
        t0 *= m
        eta, rate = s.eta, s.weight_decay_rate
        if eta != 1:
            t0 *= eta
        if rate != 0:  # decoupled weight decay: param *= 1 - eta * rate
            p *= 1 - eta * rate
        p -= t0

    def _cuda_step_ok(self, dtype: numpy.dtype) -> bool:
        hp = self.hyperparam
        return not hp.amsgrad and not hp.adabound and _cuda_update.dtype_ok(dtype)


class Adam(_hyperparams.DeclaredOptimizer):
    """Adam optimizer (Kingma and Ba), with the AdamW, AMSGrad and AdaBound options.

    Args:
        alpha: step size.
        beta1: decay rate of the first-moment estimate.
        beta2: decay rate of the second-moment estimate.
        eps: small value for numerical stability.
        eta: schedule multiplier (for learning-rate schedules).
        weight_decay_rate: decoupled weight decay (AdamW) rate.
        amsgrad: use AMSGrad (the running maximum of ``v``).
        adabound: use AdaBound (clip the step into dynamic bounds).
        final_lr: the final (SGD) learning rate of AdaBound.
        gamma: convergence speed of the AdaBound bounds.

    Raises:
        ValueError: for a negative ``alpha`` or an ``eps`` that is not positive.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> import chainer.links as L
        >>> from chainer import optimizers
        >>> model = L.Linear(2, 1, initialW=np.ones((1, 2), np.float32), nobias=True)
        >>> opt = optimizers.Adam(alpha=0.01)
        >>> opt.setup(model)
        <chainer.optimizers.adam.Adam object at 0x...>
        >>> x = np.array([[1., -2.]], np.float32)
        >>> opt.update(lambda: F.sum(model(x)))
        >>> model.W.array, opt.t
        (array([[0.99, 1.01]], dtype=float32), 1)
    """

    _rule_class = AdamRule

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta,
                 weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
                 amsgrad: bool = _default_hyperparam.amsgrad,
                 adabound: bool = _default_hyperparam.adabound,
                 final_lr: float = _default_hyperparam.final_lr,
                 gamma: float = _default_hyperparam.gamma) -> None:
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                         adabound=adabound, final_lr=final_lr, gamma=gamma)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size at the optimizer's step :attr:`t`.

        Raises:
            RuntimeError: before the first update (``t == 0``).
        """
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """The bias-corrected step size (alias of :attr:`alpha_t`, deprecated in v6)."""
        warnings.warn('Adam.lr has been renamed to Adam.alpha_t. '
                      'Use of Adam.lr is deprecated in Chainer v6.', DeprecationWarning)
        return self.alpha_t


class AdamW(Adam):
    """Adam with decoupled weight decay (``weight_decay_rate``)."""

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta,
                 weight_decay_rate: float = _default_hyperparam.weight_decay_rate) -> None:
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """Adam with AMSGrad: the step uses the running maximum of ``v``."""

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta) -> None:
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True)


class AdaBound(Adam):
    """AdaBound: Adam whose step is clipped into bounds converging to ``final_lr``."""

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 final_lr: float = _default_hyperparam.final_lr,
                 gamma: float = _default_hyperparam.gamma,
                 eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta) -> None:
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         adabound=True, final_lr=final_lr, gamma=gamma)


class AMSBound(Adam):
    """AMSBound: AdaBound with the AMSGrad running maximum."""

    def __init__(self, alpha: float = _default_hyperparam.alpha,
                 beta1: float = _default_hyperparam.beta1,
                 beta2: float = _default_hyperparam.beta2,
                 final_lr: float = _default_hyperparam.final_lr,
                 gamma: float = _default_hyperparam.gamma,
                 eps: float = _default_hyperparam.eps,
                 eta: float = _default_hyperparam.eta) -> None:
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True, adabound=True, final_lr=final_lr, gamma=gamma)
