"""Cholesky decomposition."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_outputs
from chainer.functions.math._util import expect_float, mask_grad
from chainer.functions.math.inv import inv, linalg_call
from chainer.functions.math.matmul import matmul
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Cholesky(FunctionNode):
    """Lower-triangular ``L`` with ``L @ L.T == a`` for a symmetric positive-definite ``a``."""

    @property
    def label(self) -> str:
        return 'cholesky'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('a',))
        a, = in_types
        type_check.expect(a.ndim == 2, a.shape[0] == a.shape[1])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        a, = inputs
        xp = backend.get_array_module(a)
        return linalg_call(xp.linalg.cholesky, a, 'cholesky: the matrix is not positive definite'),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        L, = retained_outputs(self)
        gL, = grad_outputs
        xp = backend.get_array_module(L.array)
        n = L.shape[0]
        lower = xp.tril(xp.ones((n, n), dtype=bool))
        # Only the lower triangle of L varies; with Phi taking the lower triangle and
        # halving the diagonal, gA = sym(L^-T Phi(L^T gL) L^-1).
        phi_mask = lower * (1 - 0.5 * xp.eye(n))
        gL = mask_grad(gL, lower)
        phi = mask_grad(matmul(L, gL, transa=True), phi_mask.astype(L.dtype))
        L_inv = inv(L)
        s = matmul(matmul(L_inv, phi, transa=True), L_inv)
        return (s + s.T) * 0.5,


@guarded
def cholesky(a: VariableOrArray) -> Variable:
    """Cholesky decomposition of a symmetric positive-definite matrix.

    Only the lower triangle of ``a`` is read; the gradient is the symmetric one.

    Args:
        a: float variable of shape ``(n, n)``.

    Returns:
        The lower-triangular factor ``L`` (``L @ L.T == a``).

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` is not a square matrix.
        ValueError: when ``a`` is not positive definite (on the CPU).
    """
    return Cholesky().apply((a,))[0]
