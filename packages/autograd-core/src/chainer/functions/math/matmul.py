"""Matrix products (batched, broadcasting over leading axes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, v7_type_error
from chainer.functions.array.reshape import reshape
from chainer.functions.math._util import cast_like
from chainer.functions.math.sum import sum_to
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _t(a: Any, trans: bool) -> Any:
    return a.swapaxes(-1, -2) if trans else a


def _expect_matmul(a: Any, b: Any, transa: bool, transb: bool) -> None:
    """v7's type check of MatMul, in its order and words (1-D operands included)."""
    type_check.expect(a.dtype.kind == 'f', b.dtype.kind == 'f', a.ndim >= 1, b.ndim >= 1)
    a_ndim, b_ndim = type_check.eval(a.ndim), type_check.eval(b.ndim)
    if b_ndim == 1:
        type_check.expect(a.shape[-2 if transa and a_ndim > 1 else -1] == b.shape[0])
    elif a_ndim == 1:
        type_check.expect(a.shape[0] == b.shape[-1 if transb and b_ndim > 1 else -2])
    else:
        type_check.expect(a.shape[-2 if transa else -1] == b.shape[-1 if transb else -2])
        type_check.expect_broadcast_shapes(a.shape[:-2], b.shape[:-2])


def _expect_batch_matmul(a: Any, b: Any, transa: bool, transb: bool) -> None:
    """v7's type check of BatchMatMul, in its order and words, on the operands as given
    (2-D ones included). v7 took float32 alone; the project any float dtype, the same
    for both: where both refuse, the failed condition is v7's."""
    if type_check.eval(a.dtype) != type_check.eval(b.dtype):
        type_check.expect(a.dtype == numpy.float32, b.dtype == numpy.float32)
    for t in (a, b):
        if type_check.eval(t.dtype).kind != 'f':
            type_check.expect(t.dtype == numpy.float32)
    type_check.expect(a.ndim >= 2, a.ndim <= 3)
    type_check.expect(b.ndim >= 2, b.ndim <= 3)
    a_idx = 1 if transa else 2
    b_idx = 2 if transb else 1
    a_size = 1 if a_idx == 2 and type_check.eval(a.ndim) == 2 else a.shape[a_idx]
    b_size = 1 if b_idx == 2 and type_check.eval(b.ndim) == 2 else b.shape[b_idx]
    type_check.expect(a_size == b_size)
    type_check.expect(a.shape[0] == b.shape[0])  # the project's (v7 failed in NumPy)


def _v7_error(label: str, check: Any, a: Variable, b: Variable, transa: bool, transb: bool,
              error: type_check.InvalidType) -> type_check.InvalidType:
    """The InvalidType v7's ``check`` gives for the operands as the user gave them (the
    project reshapes 1-D/2-D ones before its node); ``error`` when it passes."""

    err = v7_type_error(label, ('a', 'b'), (a.array, b.array),
                        lambda ta, tb: check(ta, tb, transa, transb))
    return error if err is None else err


class MatMul(FunctionNode):
    """``op(a) @ op(b)`` where op transposes the last two axes when asked."""

    def __init__(self, transa: bool = False, transb: bool = False) -> None:
        self.transa = transa
        self.transb = transb

    @property
    def label(self) -> str:
        return 'MatMul'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('a', 'b'))
        a, b = in_types
        _expect_matmul(a, b, self.transa, self.transb)
        type_check.expect(a.ndim >= 2, b.ndim >= 2)  # matmul() gives 1-D operands an axis

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a)
        return utils.force_array(xp.matmul(_t(a, self.transa), _t(b, self.transb))),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        a, b = retained_inputs(self)
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


@guarded
def matmul(a: VariableOrArray, b: VariableOrArray, transa: bool = False,
           transb: bool = False) -> Variable:
    """Matrix product of ``a`` and ``b`` (NumPy ``matmul`` semantics).

    Args:
        a, b: float variables of ndim >= 1 (1-D operands are treated as vectors). Of
            different float dtypes, they multiply in the promoted one, and each
            gradient has its operand's dtype.
        transa, transb: transpose the last two axes of ``a`` / ``b`` first.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> a = np.array([[1, 2], [3, 4]], np.float32)
        >>> b = np.array([[1, 0], [1, 1]], np.float32)
        >>> print(F.matmul(a, b).array)
        [[3. 2.]
         [7. 4.]]
        >>> print(F.matmul(a, b, transa=True).array)
        [[4. 3.]
         [6. 4.]]
    """

    a = as_variable(a)
    b = as_variable(b)
    a0, b0, transa0, transb0 = a, b, transa, transb
    squeeze_a = a.ndim == 1
    squeeze_b = b.ndim == 1
    if squeeze_a:
        a = reshape(a, (1, -1))
        transa = False
    if squeeze_b:
        b = reshape(b, (-1, 1))
        transb = False
    try:
        y = MatMul(transa, transb).apply((a, b))[0]
    except type_check.InvalidType as e:
        if not (squeeze_a or squeeze_b):
            raise
        raise _v7_error('MatMul', _expect_matmul, a0, b0, transa0, transb0, e) from None
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

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('a', 'b'))
        a, b = in_types
        _expect_batch_matmul(a, b, self.transa, self.transb)
        type_check.expect(a.ndim == 3, b.ndim == 3)  # batch_matmul() makes 2-D ones 3-D


@guarded
def batch_matmul(a: VariableOrArray, b: VariableOrArray, transa: bool = False,
                 transb: bool = False) -> Variable:
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


    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning,
                  stacklevel=2)
    a = as_variable(a)
    b = as_variable(b)
    a0, b0 = a, b
    if a.ndim == 2:
        a = reshape(a, a.shape + (1,))
    if b.ndim == 2:
        b = reshape(b, b.shape + (1,))
    try:
        return BatchMatMul(transa, transb).apply((a, b))[0]
    except type_check.InvalidType as e:
        if a is a0 and b is b0:
            raise
        raise _v7_error('BatchMatMul', _expect_batch_matmul, a0, b0, transa, transb,
                        e) from None


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
