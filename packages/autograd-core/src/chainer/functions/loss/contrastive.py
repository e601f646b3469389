"""Contrastive loss for siamese networks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.activation.relu import relu
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._batch_mean import batch_mean_grad, batch_mean_output
from chainer.functions.loss._util import check_reduce, safe_sqrt
from chainer.functions.math.sum import sum as _sum
from chainer.utils import numeric_args, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Contrastive(FunctionNode):
    """``(y d^2 + (1 - y) max(margin - d, 0)^2) / 2`` with ``d = ||x0 - x1||``."""

    _type_check_cache_attrs = ()

    def __init__(self, margin: float, reduce: str = 'mean') -> None:
        self.margin = numeric_args.py_number(margin)  # keeps float16 math as a Python float
        self.reduce = reduce

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x0', 'x1', 'y'))
        x0_type, x1_type, y_type = in_types
        # in v7's order, so that the same failure is reported
        type_check.expect(x0_type.dtype.kind == 'f',
                          x0_type.dtype == x1_type.dtype,
                          y_type.dtype.kind == 'i',
                          x0_type.shape == x1_type.shape)
        if type_check.eval(x1_type.ndim) and type_check.eval(y_type.ndim):
            type_check.expect(x1_type.shape[0] == y_type.shape[0])
        type_check.expect(x0_type.ndim == 2, x1_type.ndim == 2, y_type.ndim == 1)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        x0, x1, y = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        dist_sq = (diff * diff).sum(axis=1)
        hinge = xp.maximum(self.margin - xp.sqrt(dist_sq), 0)
        yf = y.astype(x0.dtype)
        loss = (yf * dist_sq + (1 - yf) * hinge * hinge) * x0.dtype.type(0.5)
        return batch_mean_output(loss, x0.dtype, self.reduce)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x0, x1, y = retained_inputs(self)
        gy, = grad_outputs
        n, k = x0.shape
        dtype = x0.dtype
        yf = y.array.astype(dtype)
        diff = x0 - x1
        dist = safe_sqrt(_sum(diff * diff, axis=1))
        # d/d(x0) = diff * (y - (1 - y) max(margin - d, 0) / d); d is kept away
        # from 0 (there diff is 0 and so is the gradient)
        xp = backend.get_array_module(yf)
        tiny = dtype.type(1e-8 if dtype != 'float16' else 1e-4)
        guard = xp.where(dist.array < tiny, tiny - dist.array, 0).astype(dtype)
        coef = relu(self.margin - dist) * (yf - 1) / (dist + guard) + yf
        coef = coef * batch_mean_grad(gy, (n,), self.reduce)
        gx0 = broadcast_to(reshape(coef, (n, 1)), (n, k)) * diff
        ret: list[Variable | None] = []
        for i in indexes:
            if i == 0:
                ret.append(gx0)
            elif i == 1:
                ret.append(-gx0)
            else:
                ret.append(None)
        return tuple(ret)


@guarded
def contrastive(x0: VariableOrArray, x1: VariableOrArray, y: VariableOrArray, margin: float = 1,
                reduce: str = 'mean') -> Variable:
    """Contrastive loss of pairs of vectors.

    ``L = 1/(2N) sum_n (y_n d_n^2 + (1 - y_n) max(margin - d_n, 0)^2)`` with
    ``d_n = ||x0_n - x1_n||_2``.

    Args:
        x0: float variable of shape (N, K).
        x1: variable of the shape and dtype of ``x0``.
        y: int labels of shape (N,): 1 for similar pairs, 0 for dissimilar.
        margin: positive margin for dissimilar pairs.
        reduce: ``'mean'`` (a scalar) or ``'no'`` (one loss per pair,
            without the ``1/N``).

    Returns:
        A variable of the loss.

    Raises:
        ValueError: for a non-positive margin or an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    if margin <= 0:
        raise ValueError(f'margin should be a positive value, not {margin}')
    check_reduce(reduce, ('mean', 'no'))
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
