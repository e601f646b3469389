"""Hinge loss for one-of-many classification."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import UnsupportedValueError, retained_inputs
from chainer.functions.activation.relu import relu
from chainer.functions.loss._batch_mean import batch_mean_grad, batch_mean_output
from chainer.functions.loss._util import check_reduce
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Hinge(FunctionNode):
    """``max(0, 1 - s x) ** p`` with ``s = +1`` at the true class and -1 elsewhere."""

    _type_check_cache_attrs = ()

    def __init__(self, norm: str = 'L1', reduce: str = 'mean') -> None:
        self.norm = norm
        self.reduce = reduce

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f',
                          t_type.dtype.kind == 'i',
                          x_type.ndim == 2,
                          t_type.ndim == 1,
                          x_type.shape[0] == t_type.shape[0])

    def _signs(self, x: Any, t: Any) -> Any:
        xp = backend.get_array_module(x)
        onehot = xp.arange(x.shape[1])[None, :] == t[:, None]
        return xp.where(onehot, -1, 1).astype(x.dtype)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        if xp is numpy and t.size and ((t < 0) | (t >= x.shape[1])).any():
            raise ValueError(f'hinge: labels must be in [0, {x.shape[1]}); got '
                             f'{t[(t < 0) | (t >= x.shape[1])][:5].tolist()}')
        bottom = xp.maximum(1 + self._signs(x, t) * x, 0)
        if self.norm == 'L2':
            bottom = bottom * bottom
        return batch_mean_output(bottom, x.dtype, self.reduce)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, t = retained_inputs(self)
        gy, = grad_outputs
        s = self._signs(x.array, t.array)
        gy = batch_mean_grad(gy, x.shape, self.reduce)
        margin = 1 + s * x.array
        if self.norm == 'L1':
            gx = gy * (s * (margin > 0))
        else:
            gx = gy * relu(x * s + 1) * (2 * s)
        return gx, None


@guarded
def hinge(x: VariableOrArray, t: VariableOrArray, norm: str = 'L1',
          reduce: str = 'mean') -> Variable:
    """Hinge loss for one-of-many classification.

    ``L = sum_{n,k} max(0, 1 - d(t_n == k) x_nk) ** p`` where ``d`` is +1 for
    the true class and -1 otherwise, ``p`` is 1 for ``'L1'`` and 2 for ``'L2'``.

    Args:
        x: scores of shape (N, K).
        t: int labels of shape (N,), in [0, K).
        norm: ``'L1'`` or ``'L2'``.
        reduce: ``'mean'`` (the sum divided by N, a scalar) or ``'no'``
            (the elementwise losses, shape (N, K)).

    Returns:
        A variable of the loss.

    Raises:
        NotImplementedError: for a norm other than ``'L1'`` and ``'L2'``.
        ValueError: for an unknown ``reduce`` or labels out of range.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or shapes.
    """
    if norm not in ('L1', 'L2'):
        raise UnsupportedValueError(f"norm {norm!r} is not supported; use 'L1' or 'L2'")
    check_reduce(reduce, ('mean', 'no'))
    return Hinge(norm, reduce).apply((x, t))[0]
