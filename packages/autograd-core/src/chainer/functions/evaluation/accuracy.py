"""Classification accuracy."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def expect_scores_and_labels(in_types: type_check.TypeInfoTuple) -> None:
    """Type-check ``(y, t)``: float scores ``(N, C, d_1, ..., d_k, 1, ...)`` and int
    labels ``(N, d_1, ..., d_k)`` (trailing axes of length 1 of ``y`` are allowed)."""
    # named and ordered as in v7, so that the same failure is reported; the rank
    # check after them catches what v7's let through (1-d x and t)
    type_check.argname(in_types, ('x', 't'))
    y_type, t_type = in_types
    type_check.expect(y_type.dtype.kind == 'f', t_type.dtype.kind == 'i')
    t_ndim = type_check.eval(t_type.ndim)
    type_check.expect(y_type.ndim >= t_type.ndim, y_type.shape[0] == t_type.shape[0],
                      y_type.shape[2:t_ndim + 1] == t_type.shape[1:])
    type_check.expect(y_type.ndim >= t_type.ndim + 1)
    for i in range(t_ndim + 1, type_check.eval(y_type.ndim)):
        type_check.expect(y_type.shape[i] == 1)


class Accuracy(FunctionNode):
    """Fraction of samples whose arg-max prediction equals the label."""

    _type_check_cache_attrs = ()

    def __init__(self, ignore_label: int | None = None) -> None:
        self.ignore_label = ignore_label

    @property
    def label(self) -> str:
        return 'Accuracy'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_scores_and_labels(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        y, t = inputs
        xp = backend.get_array_module(y)
        if t.size == 0 or y.shape[1] == 0:
            # the mean over no labels is NaN, as in Chainer 7; with ignore_label, 0
            empty = t.size == 0 and self.ignore_label is None
            return xp.asarray(numpy.nan if empty else 0.0, dtype=y.dtype),
        pred = y.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is not None:
            mask = t != self.ignore_label
            count = mask.sum()
            correct = ((pred == t) & mask).sum()
            # 0 when every label is ignored
            return utils.force_array(correct / xp.maximum(count, 1), y.dtype),
        return utils.force_array((pred == t).mean(), y.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return (None,) * len(indexes)


@guarded
def accuracy(y: VariableOrArray, t: VariableOrArray, ignore_label: int | None = None) -> Variable:
    """Classification accuracy of scores ``y`` against integer labels ``t``.

    The prediction is the arg-max of ``y`` over axis 1.

    Args:
        y: class scores of shape ``(N, C)`` or ``(N, C, d_1, ..., d_k)``, which
            may have more trailing axes of length 1.
        t: int labels of shape ``(N,)`` or ``(N, d_1, ..., d_k)``.
        ignore_label: labels equal to this are left out (0 when all are).
            Without it, no labels at all give NaN (the mean of nothing).

    Returns:
        A scalar variable of the dtype of ``y``; it is not differentiable (it
        is not connected to the graph).

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
        >>> t = np.array([1, 0, 0], np.int32)
        >>> F.accuracy(y, t).array
        array(0.6666667, dtype=float32)
    """
    return Accuracy(ignore_label).apply((as_array(y), as_array(t)))[0]
