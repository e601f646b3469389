"""Binary classification accuracy."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class BinaryAccuracy(FunctionNode):
    """Fraction of labels ``t`` matched by ``y >= 0`` (labels -1 are ignored)."""

    ignore_label = -1

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                          t_type.shape == x_type.shape)

    def forward(self, inputs: Any) -> Any:
        y, t = inputs
        xp = backend.get_array_module(y)
        y = y.ravel()
        t = t.ravel()
        mask = t != self.ignore_label
        count = int(mask.sum())
        if count == 0:
            return xp.asarray(0.0, dtype=y.dtype),
        pred = (y >= 0).astype(t.dtype)
        return utils.force_array(((pred == t) & mask).sum() / count, y.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        raise RuntimeError('binary_accuracy is not differentiable')


def binary_accuracy(y: Any, t: Any) -> Variable:
    """Accuracy of binary predictions ``y >= 0`` against 0/1 labels ``t`` (-1 ignored).

    Returns:
        A scalar variable (not differentiable).
    """
    return BinaryAccuracy().apply((y, t))[0]
