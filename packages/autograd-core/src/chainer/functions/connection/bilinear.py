"""Bilinear function (``bilinear``): ``y = e1^T W e2 + V1^T e1 + V2^T e2 + b``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.math.matmul import matmul
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray



def _bilinear_term(xp: Any, e1: Any, e2: Any, W: Any) -> Any:
    # y[i, l] = sum_{j, k} e1[i, j] e2[i, k] W[j, k, l]: one GEMM over (j), then a
    # batched product over (k)
    n = e1.shape[0]
    J, K, L = W.shape
    t = e1.dot(W.reshape(J, K * L)).reshape(n, K, L)
    return xp.matmul(e2[:, None, :], t)[:, 0, :]


class BilinearFunction(FunctionNode):
    """``(e1, e2, W[, V1, V2, b]) -> y``; ``e1`` (n, J...), ``e2`` (n, K...), ``W`` (J, K, L)."""

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n_in = type_check.eval(in_types.size())
        if n_in not in (3, 6):
            size = in_types.size()
            err = type_check.InvalidType(f'{size == 3} or {size == 6}', f'{size} == {n_in}')
            err.add_note('bilinear takes 3 or 6 arguments (e1, e2, W[, V1, V2, b])')
            raise err
        # v7's checks, order and words (the inputs unnamed); v7 took float32 alone, the
        # project any float dtype, the same for all inputs
        e1_type, e2_type, W_type = in_types[:3]
        type_check.expect(
            e1_type.dtype.kind == 'f',
            e1_type.ndim >= 2,
            e2_type.dtype == e1_type.dtype,
            e2_type.ndim >= 2,
            e1_type.shape[0] == e2_type.shape[0],
            W_type.dtype == e1_type.dtype,
            W_type.ndim == 3,
            type_check.prod(e1_type.shape[1:]) == W_type.shape[0],
            type_check.prod(e2_type.shape[1:]) == W_type.shape[1],
        )
        if n_in == 6:
            V1_type, V2_type, b_type = in_types[3:]
            type_check.expect(
                V1_type.dtype == e1_type.dtype,
                V1_type.ndim == 2,
                V1_type.shape[0] == W_type.shape[0],
                V1_type.shape[1] == W_type.shape[2],
                V2_type.dtype == e1_type.dtype,
                V2_type.ndim == 2,
                V2_type.shape[0] == W_type.shape[1],
                V2_type.shape[1] == W_type.shape[2],
                b_type.dtype == e1_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == W_type.shape[2],
            )

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        e1 = inputs[0].reshape(inputs[0].shape[0], -1)
        e2 = inputs[1].reshape(inputs[1].shape[0], -1)
        W = inputs[2]
        y = _bilinear_term(xp, e1, e2, W)
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1)
            y += e2.dot(V2)
            y += b
        return y.astype(e1.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        inputs = retained_inputs(self)
        e1_in, e2_in, W = inputs[:3]
        gy, = grad_outputs
        assert gy is not None
        n = e1_in.shape[0]
        J, K, L = W.shape
        e1 = reshape(e1_in, (n, J))
        e2 = reshape(e2_in, (n, K))
        ret: list[Any] = []
        if 0 in indexes or 2 in indexes:
            # outer products e2 (x) gy: (n, K * L)
            e2gy = reshape(broadcast_to(reshape(e2, (n, K, 1)), (n, K, L))
                           * broadcast_to(reshape(gy, (n, 1, L)), (n, K, L)), (n, K * L))
        W2 = reshape(W, (J, K * L))
        if 0 in indexes:
            ge1 = matmul(e2gy, W2, transb=True)
            if len(inputs) == 6:
                ge1 = ge1 + matmul(gy, inputs[3], transb=True)
            ret.append(reshape(ge1, e1_in.shape))
        if 1 in indexes:
            t = reshape(matmul(e1, W2), (n, K, L))
            ge2 = reshape(matmul(t, reshape(gy, (n, L, 1))), (n, K))
            if len(inputs) == 6:
                ge2 = ge2 + matmul(gy, inputs[4], transb=True)
            ret.append(reshape(ge2, e2_in.shape))
        if 2 in indexes:
            ret.append(reshape(matmul(e1, e2gy, transa=True), (J, K, L)))
        if 3 in indexes:
            ret.append(matmul(e1, gy, transa=True))
        if 4 in indexes:
            ret.append(matmul(e2, gy, transa=True))
        if 5 in indexes:
            ret.append(_sum(gy, axis=0))
        return tuple(ret)


@guarded
def bilinear(e1: VariableOrArray, e2: VariableOrArray, W: VariableOrArray,
             V1: VariableOrArray | None = None, V2: VariableOrArray | None = None,
             b: VariableOrArray | None = None) -> Variable:
    """Bilinear function, the core of a bilinear layer.

    ``y[i, l] = sum_{j, k} e1[i, j] e2[i, k] W[j, k, l] + sum_j e1[i, j] V1[j, l]
    + sum_k e2[i, k] V2[k, l] + b[l]``, with ``e1`` and ``e2`` flattened to
    ``(n, J)`` and ``(n, K)``.

    Args:
        e1: left input of shape ``(n, J)`` (or ``(n, ...)`` of J elements per row).
        e2: right input of shape ``(n, K)`` (or ``(n, ...)``).
        W: quadratic weight of shape ``(J, K, L)``.
        V1: left linear weight ``(J, L)``, or None.
        V2: right linear weight ``(K, L)``, or None.
        b: bias ``(L,)``, or None.

    Returns:
        Output of shape ``(n, L)``.

    Raises:
        ValueError: when some but not all of ``V1``, ``V2`` and ``b`` are given.
        chainer.utils.type_check.InvalidType: on mismatched shapes or dtypes.
    """
    flags = [V1 is None, V2 is None, b is None]
    if any(flags):
        if not all(flags):
            raise ValueError('All coefficients and bias for bilinear() must be None, '
                             'if at least one of them is None (V1, V2 and b).')
        return BilinearFunction().apply((e1, e2, W))[0]
    return BilinearFunction().apply((e1, e2, W, V1, V2, b))[0]


class BilinearFunctionGrad(BackwardNode):
    """The gradients of :class:`BilinearFunction` as a node of their own.

    Inputs: ``(e1, e2, W, gy)`` or ``(e1, e2, W, V1, V2, b, gy)``; outputs the gradients
    of the same three or six primal inputs.
    """

    n_in = None

    def primal(self) -> FunctionNode:
        return BilinearFunction()
