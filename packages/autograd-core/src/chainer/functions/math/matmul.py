"""Matrix products (batched, broadcasting over leading axes)."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions.math._util import cast_like
from chainer.utils import type_check
from chainer.variable import Variable, as_variable


def _t(a: Any, trans: bool) -> Any:
    return a.swapaxes(-1, -2) if trans else a


class MatMul(FunctionNode):
    """``op(a) @ op(b)`` where op transposes the last two axes when asked."""

    def __init__(self, transa: bool = False, transb: bool = False) -> None:
        self.transa = transa
        self.transb = transb

    @property
    def label(self) -> str:
        return 'MatMul'

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('a', 'b'))
        a, b = in_types
        type_check.expect(a.dtype.kind == 'f', b.dtype.kind == 'f', a.ndim >= 2,
                          b.ndim >= 2)
        ka = a.shape[-2] if self.transa else a.shape[-1]
        kb = b.shape[-1] if self.transb else b.shape[-2]
        type_check.expect(ka == kb)
        type_check.expect_broadcast_shapes(a.shape[:-2], b.shape[:-2])

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a)
        return utils.force_array(xp.matmul(_t(a, self.transa), _t(b, self.transb))),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.sum import sum_to

        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                if self.transa:
                    g = MatMul(self.transb, True).apply((b, gy))[0]
                else:
                    g = MatMul(False, not self.transb).apply((gy, b))[0]
                ret.append(cast_like(sum_to(g, a.shape), a))
            else:
                if self.transb:
                    g = MatMul(True, self.transa).apply((gy, a))[0]
                else:
                    g = MatMul(not self.transa, False).apply((a, gy))[0]
                ret.append(cast_like(sum_to(g, b.shape), b))
        return tuple(ret)


def matmul(a: Any, b: Any, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix product of ``a`` and ``b`` (NumPy ``matmul`` semantics).

    Args:
        a, b: float variables of ndim >= 1 (1-D operands are treated as vectors). Of
            different float dtypes, they multiply in the promoted one, and each
            gradient has its operand's dtype.
        transa, transb: transpose the last two axes of ``a`` / ``b`` first.
    """
    from chainer.functions.array.reshape import reshape

    a = as_variable(a)
    b = as_variable(b)
    squeeze_a = a.ndim == 1
    squeeze_b = b.ndim == 1
    if squeeze_a:
        a = reshape(a, (1, -1))
        transa = False
    if squeeze_b:
        b = reshape(b, (-1, 1))
        transb = False
    y = MatMul(transa, transb).apply((a, b))[0]
    if squeeze_a or squeeze_b:
        shape = y.shape[:-2] + (() if squeeze_a else y.shape[-2:-1]) + (
            () if squeeze_b else y.shape[-1:])
        y = reshape(y, shape)
    return y


class BatchMatMul(MatMul):
    """``MatMul`` of two stacks of matrices with the same batch size."""

    @property
    def label(self) -> str:
        return 'BatchMatMul'

    def check_type_forward(self, in_types: Any) -> None:
        super().check_type_forward(in_types)
        a, b = in_types
        type_check.expect(a.dtype == b.dtype, a.ndim == 3, b.ndim == 3,
                          a.shape[0] == b.shape[0])


def batch_matmul(a: Any, b: Any, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix products of two batches of matrices (deprecated: use :func:`matmul`).

    Args:
        a: a 3-D ``(B, M, N)`` batch of matrices, or a 2-D ``(B, N)`` batch of column
            vectors (``N x 1`` matrices).
        b: likewise, with the same batch size ``B``.
        transa, transb: transpose each matrix of ``a`` / ``b`` first.

    Returns:
        The 3-D batch of products.

    Raises:
        chainer.utils.type_check.InvalidType: for mismatched batch sizes or inner
            dimensions.
    """
    import warnings

    from chainer.functions.array.reshape import reshape

    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning,
                  stacklevel=2)
    a = as_variable(a)
    b = as_variable(b)
    if a.ndim == 2:
        a = reshape(a, a.shape + (1,))
    if b.ndim == 2:
        b = reshape(b, b.shape + (1,))
    return BatchMatMul(transa, transb).apply((a, b))[0]


class BatchMatMulGrad(BackwardNode):
    """The gradients of :class:`BatchMatMul`: ``(a, b, gy)`` to ``(ga, gb)``.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 2

    def __init__(self, transa: bool = False, transb: bool = False) -> None:
        self.transa = transa
        self.transb = transb

    def primal(self) -> FunctionNode:
        return BatchMatMul(self.transa, self.transb)
