"""Products of a sparse COO matrix and a dense one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array._util import index_add
from chainer.utils import type_check
from chainer.utils.sparse import CooMatrix, to_coo  # noqa: F401  (re-exported)
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, GradInputs, GradOutputs, NdArray, VariableOrArray


def _swap(x: Any, flag: bool) -> Any:
    return x.swapaxes(-1, -2) if flag else x


class _CooStructure:
    """The sparsity pattern of a COO matrix (or batch), seen through an optional transpose.

    Entry ``k`` of matrix ``b`` sits at ``(rows[b, k], cols[b, k])`` of ``op(S)``; padded
    entries (a negative index) are masked out by ``valid`` and point at ``(0, 0)``.
    """

    def __init__(self, row: Any, col: Any, shape: tuple[int, ...], trans: bool) -> None:
        xp = backend.get_array_module(row)
        rows, cols = (col, row) if trans else (row, col)
        self.shape = (shape[1], shape[0]) if trans else tuple(shape)
        n_batch = rows.shape[0] if rows.ndim == 2 else 1
        rows = rows.reshape(n_batch, -1)
        cols = cols.reshape(n_batch, -1)
        self.valid = (rows >= 0) & (cols >= 0)
        self.rows = xp.where(self.valid, rows, 0)
        self.cols = xp.where(self.valid, cols, 0)
        self.batch = xp.broadcast_to(xp.arange(n_batch)[:, None], rows.shape)


class CooMatMul(FunctionNode):
    """``op(op(S) @ op(D))`` for a sparse matrix ``S`` given by its pattern and a dense ``D``.

    ``apply((data, dense))`` takes the values of ``S`` (1-D, or 2-D for a batch of
    matrices) and the dense operand (2-D, or 3-D for a batch). ``op`` transposes (each
    matrix of) its operand where ``transa`` (for ``S``), ``transb`` (for ``D``) or
    ``transc`` (for the product) is set.

    Args:
        sp_row, sp_col: the row and column indices of the values (negative: padding).
        sp_shape: the ``(rows, columns)`` shape of ``S``.
        sp_order: the order of the entries (``'C'``, ``'F'`` or ``'other'``); a hint only.
        transa, transb, transc: the transposes described above.
        dtype: the dtype of the output; by default that of ``data`` and ``dense`` together.
    """

    def __init__(self, sp_row: NdArray, sp_col: NdArray, sp_shape: tuple[int, ...],
                 sp_order: str = 'other', transa: bool = False, transb: bool = False,
                 transc: bool = False, dtype: DTypeSpec | None = None) -> None:
        if sp_row.ndim not in (1, 2) or sp_row.shape != sp_col.shape:
            raise ValueError('sp_row and sp_col must be 1-D or 2-D arrays of one shape, '
                             f'not {sp_row.shape} and {sp_col.shape}')
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = tuple(int(s) for s in sp_shape)
        self.sp_order = sp_order
        self.transa = bool(transa)
        self.transb = bool(transb)
        self.transc = bool(transc)
        self.dtype = None if dtype is None else numpy.dtype(dtype)

    @property
    def label(self) -> str:
        return 'CooMatMul'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('sp', 'dn'))
        sp, dn = in_types
        type_check.expect(sp.dtype.kind == 'f', dn.dtype.kind == 'f',
                          sp.ndim == self.sp_row.ndim, sp.shape == self.sp_row.shape,
                          dn.ndim == sp.ndim + 1)
        if type_check.eval(sp.ndim) == 2:
            type_check.expect(sp.shape[0] == dn.shape[0])
        inner = self.sp_shape[0] if self.transa else self.sp_shape[1]
        type_check.expect(dn.shape[-1 if self.transb else -2] == inner)

    def _out_dtype(self, a: Any, b: Any) -> numpy.dtype:
        return self.dtype if self.dtype is not None else numpy.result_type(a, b)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        data, dense = inputs
        xp = backend.get_array_module(dense)
        dtype = self._out_dtype(data.dtype, dense.dtype)
        s = _CooStructure(self.sp_row, self.sp_col, self.sp_shape, self.transa)
        d = _swap(dense, self.transb).astype(dtype, copy=False)
        d = d.reshape((-1,) + d.shape[-2:])
        vals = xp.where(s.valid, data.reshape(s.valid.shape), 0).astype(dtype, copy=False)
        out = xp.zeros((d.shape[0], s.shape[0], d.shape[2]), dtype)
        index_add(out, (s.batch, s.rows), vals[..., None] * d[s.batch, s.cols])
        if data.ndim == 1:
            out = out[0]
        return xp.ascontiguousarray(_swap(out, self.transc)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        data, dense = retained_inputs(self)
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(CooMatMulGradSP(
                self.sp_row, self.sp_col, self.sp_shape, self.transa, self.transb,
                self.transc, data.dtype).apply((gy, dense))[0])
        if 1 in indexes:
            # op(D) gets op(S)^T @ gC, where gC = op(gy) undoes transc.
            ret.append(CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order, not self.transa,
                self.transc, self.transb, dense.dtype).apply((data, gy))[0])
        return tuple(ret)


class CooMatMulGradSP(FunctionNode):
    """The gradient of the values of ``S`` in :class:`CooMatMul`: the entries of
    ``op(gy) @ op(D)^T`` sampled at the pattern of ``op(S)``; takes ``(gy, dense)``."""

    def __init__(self, sp_row: NdArray, sp_col: NdArray, sp_shape: tuple[int, ...], transa: bool,
                 transb: bool, transc: bool, dtype: DTypeSpec | None) -> None:
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = sp_shape
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = numpy.dtype(dtype)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        gy, dense = inputs
        xp = backend.get_array_module(dense)
        s = _CooStructure(self.sp_row, self.sp_col, self.sp_shape, self.transa)
        dtype = numpy.result_type(gy.dtype, dense.dtype)
        gc = _swap(gy, self.transc).astype(dtype, copy=False)
        d = _swap(dense, self.transb).astype(dtype, copy=False)
        gc = gc.reshape((-1,) + gc.shape[-2:])
        d = d.reshape((-1,) + d.shape[-2:])
        g = (gc[s.batch, s.rows] * d[s.batch, s.cols]).sum(axis=-1) * s.valid
        return xp.asarray(g.reshape(self.sp_row.shape), self.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, dense = retained_inputs(self)
        ggs, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(CooMatMul(self.sp_row, self.sp_col, self.sp_shape, 'other',
                                 self.transa, self.transb, self.transc,
                                 gy.dtype).apply((ggs, dense))[0])
        if 1 in indexes:
            ret.append(CooMatMul(self.sp_row, self.sp_col, self.sp_shape, 'other',
                                 not self.transa, self.transc, self.transb,
                                 dense.dtype).apply((ggs, gy))[0])
        return tuple(ret)


def _is_coo(x: object) -> TypeGuard[CooMatrix]:
    return all(hasattr(x, n) for n in ('data', 'row', 'col', 'shape', 'order')) and \
        isinstance(getattr(x, 'data', None), Variable)


@guarded
def sparse_matmul(a: CooMatrix | VariableOrArray, b: CooMatrix | VariableOrArray,
                  transa: bool = False, transb: bool = False) -> Variable:
    """Matrix product of a sparse :class:`~chainer.utils.CooMatrix` and a dense variable.

    Exactly one of ``a`` and ``b`` is sparse. A COO matrix with 1-D ``data`` goes with a
    2-D dense operand; a batched one (2-D ``data``) with a 3-D dense batch of the same size.

    Args:
        a: the left operand (CooMatrix or variable).
        b: the right operand (CooMatrix or variable).
        transa, transb: transpose (each matrix of) ``a`` / ``b`` first.

    Returns:
        The dense product (a variable), differentiable w.r.t. the dense operand and the
        values ``data`` of the sparse one; its dtype is that of both operands together.

    Raises:
        ValueError: unless exactly one operand is sparse.
        ~chainer.utils.type_check.InvalidType: for mismatched shapes or non-float dtypes.
    """
    # (a CooMatrix passes _is_coo; isinstance only tells the checker the other is dense)
    if _is_coo(a) and not _is_coo(b) and not isinstance(b, CooMatrix):
        return CooMatMul(a.row, a.col, a.shape, a.order, transa, transb,
                         False).apply((a.data, b))[0]
    if _is_coo(b) and not _is_coo(a) and not isinstance(a, CooMatrix):
        # op(A) @ op(B) == (op(B)^T @ op(A)^T)^T
        return CooMatMul(b.row, b.col, b.shape, b.order, not transb, not transa,
                         True).apply((b.data, a))[0]
    raise ValueError('sparse_matmul takes exactly one sparse (CooMatrix) operand')
