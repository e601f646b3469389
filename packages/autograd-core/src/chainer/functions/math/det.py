"""Matrix determinant (single and batched)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.array.transpose import transpose
from chainer.functions.math.inv import Inv, SquareMatrixFunction, linalg_dtype
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Det(SquareMatrixFunction):
    """Determinant of a square matrix, or of each matrix of a batch."""

    _name = 'det'
    _labels = ('det', 'det')
    _argname = 'x'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        a, = inputs
        xp = backend.get_array_module(a)
        return utils.force_array(xp.linalg.det(linalg_dtype(a)), a.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        a, = retained_inputs(self)
        y, = retained_outputs(self)
        gy, = grad_outputs
        assert gy is not None
        # d det(A) / dA = det(A) A^-T.
        a_inv = Inv(self.batched).apply((a,))[0]
        axes = (0, 2, 1) if self.batched else (1, 0)
        scale = reshape(gy * y, y.shape + (1, 1))
        return broadcast_to(scale, a.shape) * transpose(a_inv, axes),


@guarded
def det(a: VariableOrArray) -> Variable:
    """Determinant of a square matrix.

    Args:
        a: float variable of shape ``(n, n)``.

    Returns:
        A 0-dim variable.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` is not a square matrix.
    """
    return Det().apply((a,))[0]


@guarded
def batch_det(a: VariableOrArray) -> Variable:
    """Determinant of every matrix of a batch.

    Args:
        a: float variable of shape ``(m, n, n)``.

    Returns:
        A variable of shape ``(m,)``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``a`` is not a batch of square matrices.
    """
    return Det(batched=True).apply((a,))[0]


class BatchDet(Det):
    """The determinants of a batch of square matrices ``(m, n, n)`` (v7's node of
    :func:`batch_det`; :class:`Det` with ``batched=True``)."""

    def __init__(self) -> None:
        super().__init__(batched=True)
