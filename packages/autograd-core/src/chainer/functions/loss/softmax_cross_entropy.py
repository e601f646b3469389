"""Softmax cross entropy for multi-class classification (hard or soft targets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, sum_keepdims
from chainer.functions.activation.log_softmax import log_softmax
from chainer.functions.loss import _softmax_cross_entropy_kernels as _kernels
from chainer.functions.loss._util import (
    as_array,
    check_reduce,
    log_softmax_array,
    scaled_sum,
    scaled_sum_variable,
)
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _class_axis_shape(ndim: int, n_class: int) -> tuple[int, ...]:
    return (1, n_class) + (1,) * (ndim - 2)


def _xlogx(t: Any) -> Any:
    """``t * log(t)`` with ``0 log 0 = 0``."""
    xp = backend.get_array_module(t)
    positive = t > 0
    return xp.where(positive, t * xp.log(xp.where(positive, t, 1)), 0)


class SoftmaxCrossEntropy(FunctionNode):
    """Softmax cross entropy of logits ``x`` (N, C, ...) and targets ``t``.

    ``t`` holds int labels of shape (N, ...) (hard targets) or float
    probabilities of the shape of ``x`` (soft targets).

    Attributes:
        y: the softmax of ``x`` kept for backward after the forward pass
            with ``cache_score=True`` (when backprop is enabled); None otherwise.
    """

    _type_check_cache_attrs = ()
    _fused = False

    def __init__(self, normalize: bool = True, cache_score: bool = True,
                 class_weight: NdArray | None = None, ignore_label: int = -1,
                 reduce: str = 'mean', soft_target_loss: str = 'cross-entropy') -> None:
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss
        self.y: Any = None

    @property
    def label(self) -> str:
        return 'SoftmaxCrossEntropy'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)
        if type_check.eval(t_type.dtype.kind) == 'f':
            type_check.expect(t_type.shape == x_type.shape)
        else:
            type_check.expect(
                t_type.dtype.kind == 'i',
                t_type.ndim == x_type.ndim - 1,
                x_type.shape[0] == t_type.shape[0],
                x_type.shape[2:] == t_type.shape[1:],
            )

    def _weights(self, x: Any) -> Any:
        if self.class_weight is None:
            return None
        cw = backend.get_device_from_array(x).send(self.class_weight)
        return cw.astype(x.dtype, copy=False)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, t = inputs
        xp = backend.get_array_module(x)
        if _kernels.usable(x, t, self.class_weight):
            return self._forward_fused(xp, x, t)
        # log softmax = (x - max) - log(sum(exp(x - max))); the exponentials are
        # computed in one buffer that becomes the score
        x_max = x.max(axis=1, keepdims=True)
        e = xp.subtract(x, x_max)
        xp.exp(e, out=e)
        total = sum_keepdims(e, 1)
        if self.cache_score and config.enable_backprop:  # no backward without a graph
            e /= total
            self.y = e
        else:
            self.y = None
            self.retain_inputs((0,))
        log_total = xp.log(total)
        cw = self._weights(x)
        if t.dtype.kind == 'f':
            log_y = x - x_max
            log_y -= log_total
            return self._forward_soft(xp, x, t, log_y, cw)
        return self._forward_hard(xp, x, t, x_max, log_total, cw)

    def _forward_fused(self, xp: Any, x: Any, t: Any) -> Any:
        """The forward by the fused CUDA kernels (2-D scores, integer labels)."""
        cache = self.cache_score and config.enable_backprop
        loss, weight, y = _kernels.forward(x, t, self.ignore_label, cache)
        if cache:
            self.y = y
        else:
            self.y = None
            self.retain_inputs((0,))
        self._weight = weight
        self._t_safe = t  # backward only compares labels; ignored rows weigh 0
        self._fused = True
        return self._reduced(xp, x, loss, weight)

    def _reduced(self, xp: Any, x: Any, loss: Any, weight: Any) -> Any:
        """The output for ``reduce``: the mean over the counted labels, or each loss."""
        if self.reduce == 'mean':
            if self.normalize:
                # kept on the device (no synchronization); float32 at least, so
                # that large counts do not overflow float16
                count = weight.sum(dtype=numpy.promote_types(x.dtype, numpy.float32))
                self._coeff = 1 / xp.maximum(count, 1)
            else:
                self._coeff = 1.0 / max(x.shape[0], 1)
            return scaled_sum(loss, self._coeff, x.dtype),
        return utils.force_array(loss, x.dtype),

    def _forward_hard(self, xp: Any, x: Any, t: Any, x_max: Any, log_total: Any,
                      cw: Any) -> Any:
        n_class = x.shape[1]
        if xp is numpy and t.size:
            bad = (t != self.ignore_label) & ((t < 0) | (t >= n_class))
            if bad.any():
                raise ValueError(
                    f'labels must be in [0, {n_class}) or equal to ignore_label '
                    f'({self.ignore_label}); got {t[bad].ravel()[:5].tolist()}')
        mask = t != self.ignore_label
        t_safe = xp.where(mask, t, 0)
        if x.ndim == 2:
            x_t = x[xp.arange(len(x)), t_safe]
        else:
            x_t = xp.take_along_axis(x, xp.expand_dims(t_safe, 1), axis=1)[:, 0]
        log_p = (x_t - x_max[:, 0]) - log_total[:, 0]
        weight = mask.astype(x.dtype)
        if cw is not None:
            weight = weight * cw[t_safe]
        self._weight = weight
        self._t_safe = t_safe
        loss = -(log_p * weight)
        return self._reduced(xp, x, loss, mask)

    def _forward_soft(self, xp: Any, x: Any, t: Any, log_y: Any, cw: Any) -> Any:
        t = t.astype(x.dtype, copy=False)
        tw = t if cw is None else t * cw.reshape(_class_axis_shape(x.ndim, x.shape[1]))
        self._tw = tw
        loss = -(tw * log_y).sum(axis=1)
        if self.soft_target_loss == 'kl-divergence':
            ent = _xlogx(t)
            if cw is not None:
                ent = ent * cw.reshape(_class_axis_shape(x.ndim, x.shape[1]))
            loss = loss + ent.sum(axis=1)
        if self.reduce == 'mean':
            self._coeff = 1.0 / max(x.size // max(x.shape[1], 1), 1)
            return scaled_sum(loss, self._coeff, x.dtype),
        return utils.force_array(loss, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        g, = grad_outputs
        assert g is not None
        x = None if self.y is not None else retained_inputs(self)[0].array
        return Variable._new(self._grad_x(g.array, x), False), None

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[Any, ...] | None,
                        grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        x = None if self.y is not None or inputs is None else inputs[0]
        gx = self._grad_x(grad_outputs[0], x)
        return tuple([gx if i == 0 else None for i in indexes])

    def _grad_x(self, gy: Any, x: Any) -> Any:
        """The gradient of the logits for the loss gradient ``gy`` (``x``: the retained
        logits when the softmax was not cached)."""
        if self.y is not None:
            y = self.y
        else:
            y = backend.get_array_module(x).exp(log_softmax_array(x))
        xp = backend.get_array_module(y)
        if self.reduce == 'mean':
            g = (gy * self._coeff).astype(y.dtype, copy=False)
        else:
            g = xp.expand_dims(gy, 1)
        if hasattr(self, '_tw'):
            tw = self._tw
            gx = y * tw.sum(axis=1, keepdims=True) - tw
            gx *= g
        else:
            coef = self._weight * (g if self.reduce == 'mean' else gy)
            if self._fused:
                gx = _kernels.backward(y, self._t_safe, coef.astype(y.dtype, copy=False))
            else:
                # (y - onehot(t)) * coef: scale y, then subtract coef at the labels
                # through flat indices (one per label, so no index repeats); gx is
                # made C-contiguous so that its flat view is not a copy
                gx = xp.empty(y.shape, numpy.result_type(y.dtype, coef.dtype))
                xp.multiply(y, xp.expand_dims(coef, 1), out=gx)
                n, n_class = y.shape[:2]
                rest = y.size // max(n * n_class, 1)
                t = self._t_safe.reshape(n, rest)
                flat = ((xp.arange(n)[:, None] * n_class + t) * rest
                        + xp.arange(rest)[None, :])
                gx.reshape(-1)[flat.ravel()] -= coef.reshape(-1).astype(gx.dtype,
                                                                        copy=False)
        return gx.astype(y.dtype, copy=False)


def _double_backprop_loss(x: Any, t: Any, normalize: bool, class_weight: Any,
                          ignore_label: int, reduce: str, soft_target_loss: str) -> Variable:
    """The same loss as a composition of differentiable functions."""
    xa = as_array(x)
    ta = as_array(t)
    _check_inputs(xa, ta)
    xp = backend.get_array_module(xa)
    dtype = xa.dtype
    n_class = xa.shape[1]
    cw = None
    if class_weight is not None:
        cw = backend.get_device_from_array(xa).send(class_weight).astype(dtype, copy=False)
        cw = cw.reshape(_class_axis_shape(xa.ndim, n_class))
    log_y = log_softmax(x)
    if ta.dtype.kind == 'f':
        ta = ta.astype(dtype, copy=False)
        tw = ta if cw is None else ta * cw
        loss = -_sum(log_y * tw, axis=1)
        if soft_target_loss == 'kl-divergence':
            ent = _xlogx(ta)
            if cw is not None:
                ent = ent * cw
            loss = loss + ent.sum(axis=1).astype(dtype, copy=False)
        count = xa.size // max(n_class, 1)
    else:
        if xp is numpy and ta.size:
            bad = (ta != ignore_label) & ((ta < 0) | (ta >= n_class))
            if bad.any():
                raise ValueError(
                    f'labels must be in [0, {n_class}) or equal to ignore_label '
                    f'({ignore_label}); got {ta[bad].ravel()[:5].tolist()}')
        mask = ta != ignore_label
        onehot = (xp.arange(n_class).reshape(_class_axis_shape(xa.ndim, n_class))
                  == xp.expand_dims(xp.where(mask, ta, 0), 1)) & xp.expand_dims(mask, 1)
        sel = onehot.astype(dtype)
        if cw is not None:
            sel = sel * cw
        loss = -_sum(log_y * sel, axis=1)
        count = int(mask.sum()) if normalize else xa.shape[0]
    if reduce == 'mean':
        return scaled_sum_variable(loss, 1.0 / max(count, 1))
    return loss


def _check_inputs(x: Any, t: Any) -> None:
    if not config.type_check:
        return
    in_types = type_check.get_types((x, t), 'in_types', False)
    node = SoftmaxCrossEntropy()
    with type_check.get_function_check_context(node):
        node.check_type_forward(in_types)


@guarded
def softmax_cross_entropy(x: VariableOrArray, t: VariableOrArray, normalize: bool = True,
                          cache_score: bool = True,
                          class_weight: NdArray | None = None, ignore_label: int = -1,
                          reduce: str = 'mean', enable_double_backprop: bool = False,
                          soft_target_loss: str = 'cross-entropy') -> Variable:
    """Cross entropy between the softmax of ``x`` (over axis 1) and targets ``t``.

    Args:
        x: logits of shape (N, C) or (N, C, d1, ...).
        t: int labels of shape (N,) or (N, d1, ...), where ``ignore_label``
            entries are skipped; or float probabilities of the shape
            of ``x`` (soft targets, cast to the dtype of ``x``).
        normalize: with ``reduce='mean'`` and int labels, divide by the number
            of non-ignored labels (True) or by N (False). Soft targets are
            always divided by the number of distributions ``N * d1 * ...``.
        cache_score: keep the softmax for the backward pass (faster); with
            False it is recomputed from ``x``.
        class_weight: per-class weights of shape (C,) (an array), multiplied
            to the log-probabilities of each class.
        ignore_label: the label to ignore.
        reduce: ``'mean'`` (a scalar) or ``'no'`` (one loss per label or per
            distribution, shape (N, d1, ...)).
        enable_double_backprop: build the loss from differentiable functions,
            so that its gradient can be differentiated again (slower).
        soft_target_loss: for soft targets, ``'cross-entropy'``
            (``-sum t log y``) or ``'kl-divergence'`` (``sum t (log t - log y)``).

    Returns:
        A variable of the loss (0 where every label is ignored).

    Raises:
        ValueError: for an unknown ``reduce`` or ``soft_target_loss``, a
            ``class_weight`` that is not a 1-dim float array of C values, or
            labels out of range (checked on the CPU).
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[0., 0.], [10., 0.]], np.float32)
        >>> t = np.array([0, 0], np.int32)
        >>> loss = F.softmax_cross_entropy(x, t)
        >>> print(loss.array)
        0.3465963
        >>> F.softmax_cross_entropy(x, t, reduce='no').array
        array([6.931472e-01, 4.541771e-05], dtype=float32)
    """
    check_reduce(reduce, ('mean', 'no'))
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError("soft_target_loss must be 'cross-entropy' or 'kl-divergence', "
                         f'not {soft_target_loss!r}')
    if class_weight is not None:
        if isinstance(class_weight, Variable):
            raise ValueError('class_weight must be an array (numpy.ndarray or '
                             'cupy.ndarray), not a chainer.Variable')
        n_class = as_array(x).shape[1] if as_array(x).ndim >= 2 else None
        if getattr(class_weight, 'ndim', None) != 1 or (
                n_class is not None and class_weight.shape[0] != n_class):
            raise ValueError(f'class_weight must be an array of shape ({n_class},), not '
                             f'{getattr(class_weight, "shape", type(class_weight).__name__)}')
        if class_weight.dtype.kind != 'f':
            raise ValueError('class_weight must be an array of floats, not of '
                             f'{class_weight.dtype}')
    if enable_double_backprop:
        return _double_backprop_loss(x, t, normalize, class_weight, ignore_label, reduce,
                                     soft_target_loss)
    return SoftmaxCrossEntropy(normalize, cache_score, class_weight, ignore_label, reduce,
                               soft_target_loss).apply((x, t))[0]
