"""Softmax cross entropy for multi-class classification."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


def _log_softmax(x: Any, xp: Any) -> Any:
    m = x.max(axis=1, keepdims=True)
    shifted = x - m
    return shifted - xp.log(xp.exp(shifted).sum(axis=1, keepdims=True))


class SoftmaxCrossEntropy(FunctionNode):
    """Softmax cross entropy of logits ``x`` (N, C, ...) and labels ``t`` (N, ...)."""

    def __init__(self, normalize: bool = True, cache_score: bool = True,
                 class_weight: Any = None, ignore_label: int = -1,
                 reduce: str = 'mean') -> None:
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce

    @property
    def label(self) -> str:
        return 'SoftmaxCrossEntropy'

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            t_type.ndim == x_type.ndim - 1,
            x_type.shape[0] == t_type.shape[0],
            x_type.shape[2:] == t_type.shape[1:],
        )

    def forward(self, inputs: Any) -> Any:
        x, t = inputs
        xp = backend.get_array_module(x)
        n_class = x.shape[1]
        if xp is numpy and t.size:
            bad = (t != self.ignore_label) & ((t < 0) | (t >= n_class))
            if bad.any():
                raise ValueError(
                    f'labels must be in [0, {n_class}) or equal to ignore_label '
                    f'({self.ignore_label}); got {t[bad].ravel()[:5].tolist()}')
        log_y = _log_softmax(x, xp)
        mask = t != self.ignore_label
        t_safe = xp.where(mask, t, 0)
        log_p = xp.take_along_axis(log_y, xp.expand_dims(t_safe, 1), axis=1)[:, 0]
        weight = mask.astype(x.dtype)
        if self.class_weight is not None:
            cw = backend.get_device_from_array(x).send(self.class_weight)
            weight = weight * cw[t_safe]
        self._mask_weight = weight
        self._t_safe = t_safe
        self._log_y = log_y if self.cache_score else None
        self._x_shape = x.shape
        if self.reduce == 'mean':
            count = int(mask.sum()) if self.normalize else x.shape[0]
            self._coeff = 1.0 / max(count, 1)
            loss = -(log_p * weight).sum() * self._coeff
            return utils.force_array(loss, x.dtype),
        return utils.force_array(-(log_p * weight), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        gy = grad_outputs[0].array
        if self._log_y is None:
            raise RuntimeError('cache_score=False is not supported by this backward path')
        xp = backend.get_array_module(gy)
        y = xp.exp(self._log_y)
        onehot_sub = xp.expand_dims(self._t_safe, 1)
        gx = y
        xp.put_along_axis(gx, onehot_sub,
                          xp.take_along_axis(gx, onehot_sub, axis=1) - 1, axis=1)
        w = xp.expand_dims(self._mask_weight, 1)
        if self.reduce == 'mean':
            gx *= w * (gy * self._coeff)
        else:
            gx *= w * xp.expand_dims(gy, 1)
        return Variable._new(gx.astype(gy.dtype, copy=False), False), None


def softmax_cross_entropy(x: Any, t: Any, normalize: bool = True, cache_score: bool = True,
                          class_weight: Any = None, ignore_label: int = -1,
                          reduce: str = 'mean', enable_double_backprop: bool = False,
                          soft_target_loss: str = 'cross-entropy') -> Variable:
    """Cross entropy between the softmax of ``x`` and integer labels ``t``.

    Args:
        x: logits of shape (N, C) or (N, C, d1, ...).
        t: int labels of shape (N,) or (N, d1, ...); ``ignore_label`` entries
            are skipped.
        normalize: with ``reduce='mean'``, divide by the number of non-ignored
            labels (True) or by N (False).
        cache_score: keep the softmax for the backward pass.
        class_weight: per-class weights of shape (C,).
        ignore_label: the label to ignore.
        reduce: ``'mean'`` (a scalar) or ``'no'`` (one loss per label).
        enable_double_backprop: make the gradient differentiable again.
        soft_target_loss: only ``'cross-entropy'`` with integer targets here.

    Raises:
        ValueError: for an unknown ``reduce``, or labels out of range.
    """
    if reduce not in ('mean', 'no'):
        raise ValueError(f"reduce must be 'mean' or 'no', not {reduce!r}")
    if enable_double_backprop:
        raise NotImplementedError(
            'softmax_cross_entropy(enable_double_backprop=True) arrives with the full '
            'chainer.functions loss set; it is not available yet')
    if getattr(t, 'dtype', None) is not None and t.dtype.kind == 'f':
        raise NotImplementedError('soft targets (float t) are not supported yet')
    if reduce == 'no' and not cache_score:
        cache_score = True
    return SoftmaxCrossEntropy(normalize, True, class_weight, ignore_label,
                               reduce).apply((x, t))[0]
