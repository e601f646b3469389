"""Binary classification accuracy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class BinaryAccuracy(FunctionNode):
    """Fraction of labels ``t`` matched by ``y >= 0`` (labels -1 are ignored)."""

    _type_check_cache_attrs = ()
    ignore_label = -1

    @property
    def label(self) -> str:
        return 'BinaryAccuracy'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 't'))  # as v7 names them
        y_type, t_type = in_types
        type_check.expect(y_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                          t_type.shape == y_type.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        y, t = inputs
        xp = backend.get_array_module(y)
        y = y.ravel()
        t = t.ravel()
        mask = t != self.ignore_label
        count = mask.sum()
        pred = (y >= 0).astype(t.dtype)
        correct = ((pred == t) & mask).sum()
        # 0 when every label is ignored
        return utils.force_array(correct / xp.maximum(count, 1), y.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return (None,) * len(indexes)


@guarded
def binary_accuracy(y: VariableOrArray, t: VariableOrArray) -> Variable:
    """Accuracy of binary predictions ``y >= 0`` against 0/1 labels ``t``.

    Args:
        y: scores (logits) of any shape.
        t: int labels (0 or 1) of the shape of ``y``; -1 marks labels to ignore.

    Returns:
        A scalar variable of the dtype of ``y`` (0 when every label is
        ignored); it is not differentiable (not connected to the graph).

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
    """
    return BinaryAccuracy().apply((as_array(y), as_array(t)))[0]
