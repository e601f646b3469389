"""Matrix inverse (single and batched)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_outputs
from chainer.functions.math._util import expect_float
from chainer.functions.math.matmul import matmul
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def linalg_dtype(a: NdArray) -> NdArray:
    """``a`` in a dtype LAPACK takes (float16 goes through float32)."""
    return a.astype(numpy.float32) if a.dtype == numpy.float16 else a


def linalg_call(fn: Callable[[NdArray], NdArray], a: NdArray, error: str) -> NdArray:
    """``fn(a)`` computed in :func:`linalg_dtype` and cast back to the dtype of ``a``.

    Raises:
        ValueError: ``'<error> (<LAPACK's message>)'`` where LAPACK fails.
    """
    try:
        y = fn(linalg_dtype(a))
    except numpy.linalg.LinAlgError as e:
        raise ValueError(f'{error} ({e})') from None
    return utils.force_array(y, a.dtype)


class SquareMatrixFunction(FunctionNode):
    """A function of one float square matrix, or of each of a batch with ``batched``.

    Labelled and type-checked as Chainer v7's node: ``_labels`` holds the labels of
    the single and the batched forms, ``_argname`` the input's name in messages.
    """

    _name = ''
    _labels = ('', '')
    _argname = 'a'

    def __init__(self, batched: bool = False) -> None:
        self.batched = batched

    @property
    def label(self) -> str:
        return self._labels[1 if self.batched else 0]

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, (self._argname,))
        a, = in_types
        if self.batched:
            type_check.expect(a.ndim == 3)
            type_check.expect(a.shape[-1] == a.shape[-2])
        else:
            type_check.expect(a.ndim == 2)
            type_check.expect(a.shape[0] == a.shape[1])


class Inv(SquareMatrixFunction):
    """Inverse of a square matrix, or of each matrix of a batch."""

    _name = 'inv'
    _labels = ('Inv', 'BatchInv')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        a, = inputs
        xp = backend.get_array_module(a)
        if a.size == 0:
            return xp.empty_like(a),
        return linalg_call(xp.linalg.inv, a, f'{self.label}: the matrix is singular'),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        y, = retained_outputs(self)
        gy, = grad_outputs
        assert gy is not None
        # d(A^-1) = -A^-1 dA A^-1, so gA = -A^-T gY A^-T.
        return -matmul(matmul(y, gy, transa=True), y, transb=True),


@guarded
def inv(a: VariableOrArray) -> Variable:
    """Inverse of a square matrix.

    Args:
        a: float variable of shape ``(n, n)``.

    Returns:
        The inverse, of the same shape.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` is not a square matrix.
        ValueError: when ``a`` is singular (on the CPU).
    """
    return Inv().apply((a,))[0]


@guarded
def batch_inv(a: VariableOrArray) -> Variable:
    """Inverse of every matrix of a batch.

    Args:
        a: float variable of shape ``(m, n, n)``.

    Returns:
        The inverses, of the same shape.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` is not a batch of square matrices.
        ValueError: when a matrix is singular (on the CPU).
    """
    return Inv(batched=True).apply((a,))[0]


class BatchInv(Inv):
    """The inverses of a batch of square matrices ``(m, n, n)`` (v7's node of
    :func:`batch_inv`; :class:`Inv` with ``batched=True``)."""

    def __init__(self) -> None:
        super().__init__(batched=True)
