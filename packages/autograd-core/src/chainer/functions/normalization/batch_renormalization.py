"""Batch renormalization: batch normalization corrected toward the running statistics."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import grad_by_recompute, retained_inputs
from chainer.functions.math.average import mean as f_mean
from chainer.functions.math.sqrt import rsqrt
from chainer.functions.normalization.batch_normalization import (
    Layout,
    _affine,
    channel_dot,
    channel_sum,
    compute_axes,
    compute_dtype,
    fixed_batch_normalization,
)
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


class BatchRenormalizationFunction(FunctionNode):
    """``gamma * ((x - mean) / std * r + d) + beta`` with the batch's ``mean`` and ``std``.

    ``r = clip(std / running_std, 1 / rmax, rmax)`` and
    ``d = clip((mean - running_mean) / running_std, -dmax, dmax)`` are computed
    from the running statistics before their update and are constants for the
    gradient.

    Args:
        eps: added to the variances.
        mean: the running mean (an array, updated in place when
            ``update_statistics``), or None for zeros.
        var: the running variance (likewise), or None for ones.
        decay: the decay rate of the running statistics.
        rmax: the bound of ``r``.
        dmax: the bound of ``d``.
        update_statistics: whether to update the running statistics.
    """

    r: Any = None
    d: Any = None

    def __init__(self, eps: float = 2e-5, mean: NdArray | None = None,
                 var: NdArray | None = None,
                 decay: float = 0.9, rmax: float = 1, dmax: float = 0,
                 update_statistics: bool = True) -> None:
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.rmax = rmax
        self.dmax = dmax
        self.update_statistics = update_statistics

    @property
    def label(self) -> str:
        return 'BatchRenormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # v7's checks, in its order and words (the inputs unnamed)
        type_check.expect(in_types.size() == 3)
        x_type, gamma_type, beta_type = in_types
        m = type_check.eval(gamma_type.ndim)
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= gamma_type.ndim + 1,
            x_type.shape[1:1 + m] == gamma_type.shape,
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
            gamma_type.shape == beta_type.shape,
        )
        type_check.expect(gamma_type.ndim >= 1)  # the project's, beyond v7

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        self._aggr, key = compute_axes(x.ndim, gamma.ndim, None)
        layout = self._layout = Layout(x.shape, key)
        cdt = compute_dtype(x.dtype)
        # each statistic not given starts as documented (zeros, ones), the other kept
        rm = self.running_mean
        if rm is None:
            rm = self.running_mean = xp.zeros(gamma.shape, gamma.dtype)
        rv = self.running_var
        if rv is None:
            rv = self.running_var = xp.ones(gamma.shape, gamma.dtype)
        m = layout.m
        x3 = layout.to3(x).astype(cdt, copy=False)
        mean = channel_sum(x3, xp) / cdt.type(max(m, 1))
        y3 = x3 - mean[:, None]
        var = channel_dot(y3, y3, xp) / cdt.type(max(m, 1))
        std = xp.sqrt(var + cdt.type(self.eps))
        running_mean = rm.reshape(-1).astype(cdt)
        running_std = xp.sqrt(rv.reshape(-1).astype(cdt) + cdt.type(self.eps))
        r = xp.clip(std / running_std, 1. / self.rmax, self.rmax).astype(cdt, copy=False)
        d = xp.clip((mean - running_mean) / running_std, -self.dmax, self.dmax).astype(
            cdt, copy=False)
        gamma1 = gamma.reshape(-1).astype(cdt)
        y3 *= (gamma1 * r / std)[:, None]
        y3 += (gamma1 * d + beta.reshape(-1).astype(cdt))[:, None]
        self.mean, self.inv_std, self.r, self.d = mean, 1 / std, r, d
        if self.update_statistics:
            decay = self.decay
            rm *= decay
            rm += ((1 - decay) * mean).reshape(rm.shape).astype(rm.dtype, copy=False)
            rv *= decay
            adjust = m / max(m - 1., 1.)
            rv += ((1 - decay) * adjust * var).reshape(rv.shape).astype(rv.dtype, copy=False)
        return layout.from3(y3).astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x, gamma, _ = (v.array for v in retained_inputs(self))
        g, = grad_outputs
        assert g is not None
        gy = g.array
        xp = backend.get_array_module(x)
        layout = self._layout
        cdt = compute_dtype(x.dtype)
        m = cdt.type(max(layout.m, 1))
        x3 = layout.to3(x).astype(cdt, copy=False)
        g3 = layout.to3(gy).astype(cdt, copy=False)
        mean, inv_std, r, d = self.mean, self.inv_std, self.r, self.d
        gbeta = channel_sum(g3, xp)
        gxhat_dot = (channel_dot(g3, x3, xp) - mean * gbeta) * inv_std  # sum(gy * x_hat)
        ggamma = r * gxhat_dot + d * gbeta
        a = gamma.reshape(-1).astype(cdt) * r * inv_std
        b = a * inv_std * gxhat_dot / -m
        c = a * gbeta / -m - b * mean
        gx = g3 * a[:, None]
        gx += x3 * b[:, None]
        gx += c[:, None]
        shape = gamma.shape
        return (layout.from3(gx).astype(x.dtype, copy=False),
                ggamma.reshape(shape).astype(gamma.dtype, copy=False),
                gbeta.reshape(shape).astype(gamma.dtype, copy=False))

    def _composed(self, x: Any, gamma: Any, beta: Any) -> tuple[Any]:

        aggr = self._aggr
        shape = tuple(1 if i in aggr else s for i, s in enumerate(x.shape))
        dt = x.dtype
        mean = f_mean(x, axis=aggr, keepdims=True)
        xc = x - mean
        inv_std = rsqrt(f_mean(xc * xc, axis=aggr, keepdims=True) + dt.type(self.eps))
        r = self.r.astype(dt).reshape(shape)
        d = self.d.astype(dt).reshape(shape)
        return _affine(xc * inv_std * r + d, gamma, beta, aggr),


@guarded
def batch_renormalization(x: VariableOrArray, gamma: VariableOrArray, beta: VariableOrArray,
                          rmax: float, dmax: float, eps: float = 2e-5,
                          running_mean: NdArray | None = None,
                          running_var: NdArray | None = None, decay: float = 0.9,
                          update_statistics: bool = False) -> Variable:
    """Batch renormalization: batch normalization corrected by the running statistics.

    ``y = gamma * ((x - mean) / std * r + d) + beta`` with the batch statistics
    ``mean`` and ``std = sqrt(var + eps)`` (over axis 0 and the axes after
    those of ``gamma``), where ``r = clip(std / running_std, 1/rmax, rmax)``
    and ``d = clip((mean - running_mean) / running_std, -dmax, dmax)`` are not
    differentiated. See Ioffe, "Batch Renormalization" (2017).

    Args:
        x: the input variable.
        gamma: the scaling parameter, of shape ``x.shape[1:1 + gamma.ndim]``.
        beta: the shifting parameter, of the shape of ``gamma``.
        rmax: the bound of the scale correction ``r``.
        dmax: the bound of the shift correction ``d``.
        eps: added to the variances.
        running_mean: the running mean (an array), or None for zeros.
        running_var: the running variance (an array), or None for ones.
        decay: the decay rate of the running statistics.
        update_statistics: update ``running_mean`` and ``running_var`` in place
            (with the unbiased variance).

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``gamma`` or ``beta`` do not fit ``x``.
    """
    return BatchRenormalizationFunction(eps, running_mean, running_var, decay, rmax, dmax,
                                        update_statistics).apply((x, gamma, beta))[0]


@guarded
def fixed_batch_renormalization(x: VariableOrArray, gamma: VariableOrArray,
                                beta: VariableOrArray, mean: VariableOrArray,
                                var: VariableOrArray, eps: float = 2e-5) -> Variable:
    """Batch renormalization with fixed statistics: the same as
    :func:`~chainer.functions.fixed_batch_normalization` (deprecated, as in v7).

    Args:
        x: the input variable.
        gamma: the scaling parameter.
        beta: the shifting parameter.
        mean: the mean to subtract.
        var: the variance to divide by (its square root).
        eps: added to the variance.

    Returns:
        The output variable.

    Warns:
        DeprecationWarning: always; use ``fixed_batch_normalization``.
    """
    warnings.warn('fixed_batch_renormalization is deprecated. '
                  'Use fixed_batch_normalization instead.', DeprecationWarning)
    return fixed_batch_normalization(x, gamma, beta, mean, var, eps)
