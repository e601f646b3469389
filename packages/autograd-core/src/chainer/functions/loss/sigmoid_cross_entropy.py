"""Sigmoid cross entropy for binary (multi-label) classification."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class SigmoidCrossEntropy(FunctionNode):
    """Sigmoid cross entropy of logits ``x`` and 0/1 labels ``t`` (-1: ignore)."""

    ignore_label = -1

    def __init__(self, normalize: bool = True, reduce: str = 'mean') -> None:
        self.normalize = normalize
        self.reduce = reduce

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                          x_type.shape == t_type.shape)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        mask = (t != self.ignore_label).astype(x.dtype)
        # log(1 + exp(-|x|)) + max(x, 0) - x t: stable for large |x|
        loss = (xp.log1p(xp.exp(-abs(x))) + xp.maximum(x, 0) - x * t) * mask
        if self.reduce == 'mean':
            count = float(mask.sum()) if self.normalize else (x.shape[0] if x.ndim else 1)
            self._coeff = 1.0 / max(count, 1)
            return utils.force_array(loss.sum() * self._coeff, x.dtype),
        return utils.force_array(loss, x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, t = self.get_retained_inputs()
        gy = grad_outputs[0]
        xa, ta = x.array, t.array
        xp = backend.get_array_module(xa)
        half = xa.dtype.type(0.5)
        y = xp.tanh(xa * half) * half + half
        mask = (ta != self.ignore_label).astype(xa.dtype)
        gx = (y - ta) * mask
        if self.reduce == 'mean':
            gx *= gy.array * self._coeff
        else:
            gx *= gy.array
        return Variable._new(utils.force_array(gx, xa.dtype), False), None


def sigmoid_cross_entropy(x: Any, t: Any, normalize: bool = True, reduce: str = 'mean') -> Any:
    """Cross entropy between ``sigmoid(x)`` and binary labels ``t``.

    Args:
        x: logits (float).
        t: int labels of the same shape, 0 or 1; -1 entries are ignored.
        normalize: with ``reduce='mean'``, divide by the number of non-ignored
            labels (True) or by the batch size (False).
        reduce: ``'mean'`` (a scalar) or ``'no'`` (elementwise).

    Raises:
        ValueError: for an unknown ``reduce``.
    """
    if reduce not in ('mean', 'no'):
        raise ValueError(f"reduce must be 'mean' or 'no', not {reduce!r}")
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
