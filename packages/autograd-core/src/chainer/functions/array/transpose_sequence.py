"""Transposing a list of sequences (batch-major <-> time-major)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import fill_grads
from chainer.utils import type_check

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


class TransposeSequence(FunctionNode):
    """Sequences sorted by decreasing length to the list of their time steps."""

    @property
    def label(self) -> str:
        return 'TransposeSequence'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n = type_check.eval(in_types.size())
        if n == 0:
            return
        x0 = in_types[0]
        type_check.expect(x0.ndim >= 1)
        for i in range(1, n):
            prev, xi = in_types[i - 1], in_types[i]
            type_check.expect(x0.dtype == xi.dtype, x0.ndim == xi.ndim,
                              x0.shape[1:] == xi.shape[1:], prev.shape[0] >= xi.shape[0])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        if not inputs:
            return ()
        xp = backend.get_array_module(*inputs)
        self._lengths = [len(x) for x in inputs]
        x0 = inputs[0]
        self._dtype = x0.dtype
        self._rest = x0.shape[1:]
        n_steps = self._lengths[0]
        padded = xp.zeros((n_steps, len(inputs)) + self._rest, x0.dtype)
        for i, x in enumerate(inputs):
            padded[:len(x), i] = x
        ys = []
        batch = len(inputs)
        for t in range(n_steps):
            while self._lengths[batch - 1] <= t:
                batch -= 1
            ys.append(padded[t, :batch])
        self._out_shapes = [y.shape for y in ys]
        return tuple(ys)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gys = fill_grads(grad_outputs, self._out_shapes, self._dtype)
        if gys is None:
            return (None,) * len(indexes)
        gxs = list(TransposeSequence().apply(tuple(gys)))
        xp = backend.get_array_module(gxs[0])
        for n in self._lengths[len(gxs):]:
            gxs.append(xp.zeros((n,) + self._rest, self._dtype))
        return tuple(gxs[i] for i in indexes)


@guarded
def transpose_sequence(xs: Sequence[VariableOrArray]) -> tuple[Variable, ...]:
    """Transpose a list of sequences: ``ys[t][i] = xs[i][t]``.

    Args:
        xs: a list of variables/arrays of shapes ``(L_i, ...)`` sorted by
            non-increasing length ``L_i``.

    Returns:
        A tuple of ``L_0`` variables; ``ys[t]`` stacks the time step ``t`` of
        every sequence longer than ``t``.

    Raises:
        chainer.utils.type_check.InvalidType: for unsorted lengths or
            mismatched dtypes or trailing shapes.
    """
    return TransposeSequence().apply(tuple(xs))
