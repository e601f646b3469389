"""Classification accuracy."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class Accuracy(FunctionNode):
    """Fraction of samples whose arg-max prediction equals the label."""

    _type_check_cache_attrs = ()

    def __init__(self, ignore_label: int | None = None) -> None:
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                          t_type.ndim == x_type.ndim - 1,
                          x_type.shape[0] == t_type.shape[0],
                          x_type.shape[2:] == t_type.shape[1:])

    def forward(self, inputs: Any) -> Any:
        y, t = inputs
        xp = backend.get_array_module(y)
        pred = y.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is not None:
            mask = t != self.ignore_label
            count = int(mask.sum())
            if count == 0:
                return xp.asarray(0.0, dtype=y.dtype),
            correct = ((pred == t) & mask).sum()
            return utils.force_array(correct / count, y.dtype),
        if t.size == 0:
            return xp.asarray(0.0, dtype=y.dtype),
        return utils.force_array((pred == t).mean(), y.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        raise RuntimeError('accuracy is not differentiable')


def accuracy(y: Any, t: Any, ignore_label: int | None = None) -> Variable:
    """Classification accuracy of scores ``y`` (N, C, ...) against labels ``t`` (N, ...).

    Args:
        y: class scores; the prediction is the arg-max over axis 1.
        t: int labels.
        ignore_label: labels equal to this are excluded.

    Returns:
        A scalar variable (not differentiable).
    """
    return Accuracy(ignore_label).apply((y, t))[0]
