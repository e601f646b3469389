"""Triplet loss."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._batch_mean import batch_mean_grad, batch_mean_output
from chainer.functions.loss._util import check_reduce
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Triplet(FunctionNode):
    """``max(||a - p||^2 - ||a - n||^2 + margin, 0)`` per sample."""

    _type_check_cache_attrs = ()

    def __init__(self, margin: float, reduce: str = 'mean') -> None:
        self.margin = margin
        self.reduce = reduce

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('anchor', 'positive', 'negative'))
        a_type, p_type, n_type = in_types
        type_check.expect(a_type.dtype.kind == 'f',
                          a_type.dtype == p_type.dtype,
                          a_type.dtype == n_type.dtype,
                          a_type.ndim == 2,
                          a_type.shape == p_type.shape,
                          a_type.shape == n_type.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        a, p, n = inputs
        xp = backend.get_array_module(a)
        dp = a - p
        dn = a - n
        dist = (dp * dp).sum(axis=1) - (dn * dn).sum(axis=1) + a.dtype.type(self.margin)
        self._active = dist > 0
        loss = xp.maximum(dist, 0)
        return batch_mean_output(loss, a.dtype, self.reduce)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        a, p, n = retained_inputs(self)
        gy, = grad_outputs
        batch, k = a.shape
        g = batch_mean_grad(gy, (batch,), self.reduce) * (self._active.astype(a.dtype) * 2)
        g = broadcast_to(reshape(g, (batch, 1)), (batch, k))
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * (n - p))
            elif i == 1:
                ret.append(g * (p - a))
            else:
                ret.append(g * (a - n))
        return tuple(ret)


@guarded
def triplet(anchor: VariableOrArray, positive: VariableOrArray, negative: VariableOrArray,
            margin: float = 0.2, reduce: str = 'mean') -> Variable:
    """Triplet loss: pull ``positive`` towards ``anchor``, push ``negative`` away.

    ``L = 1/N sum_i max(||a_i - p_i||^2 - ||a_i - n_i||^2 + margin, 0)``.

    Args:
        anchor: float variable of shape (N, K).
        positive: variable of the shape and dtype of ``anchor``.
        negative: variable of the shape and dtype of ``anchor``.
        margin: a positive margin.
        reduce: ``'mean'`` (a scalar) or ``'no'`` (one loss per sample).

    Returns:
        A variable of the loss.

    Raises:
        ValueError: for a non-positive margin or an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    if margin <= 0:
        raise ValueError(f'margin should be a positive value, not {margin}')
    check_reduce(reduce, ('mean', 'no'))
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
