"""Products of a sparse COO matrix and a dense one."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.utils.sparse import CooMatrix, to_coo  # noqa: F401  (re-exported)
from chainer.variable import Variable, as_variable


def _scatter_add(out: Any, index: Any, values: Any) -> None:
    if isinstance(out, numpy.ndarray):
        numpy.add.at(out, index, values)
    else:
        import cupyx

        cupyx.scatter_add(out, index, values)


class CooMatMul(FunctionNode):
    """``S @ D`` for a sparse ``S`` given by ``(data, row, col)`` (flattened, with global
    row and column indexes) and a dense 2-D ``D``; the output has ``n_rows`` rows."""

    def __init__(self, row: Any, col: Any, valid: Any, n_rows: int) -> None:
        self.row = row
        self.col = col
        self.valid = valid
        self.n_rows = n_rows

    @property
    def label(self) -> str:
        return 'sparse_matmul'

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, ('sp', 'dn'))
        sp, dn = in_types
        type_check.expect(sp.dtype.kind == 'f', sp.dtype == dn.dtype, dn.ndim == 2)

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        data, dense = inputs
        xp = backend.get_array_module(dense)
        vals = data.reshape(-1) * self.valid
        out = xp.zeros((self.n_rows, dense.shape[1]), dense.dtype)
        _scatter_add(out, self.row, vals[:, None] * dense[self.col])
        return out,

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.array.reshape import reshape

        data, dense = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                g = CooSampledProduct(self.row, self.col, self.valid).apply((gy, dense))[0]
                ret.append(reshape(g, data.shape))
            else:
                ret.append(CooMatMul(self.col, self.row, self.valid,
                                     dense.shape[0]).apply((data, gy))[0])
        return tuple(ret)


class CooSampledProduct(FunctionNode):
    """``(A @ B.T)[row, col]`` for dense ``A``, ``B``: the gradient of the sparse values."""

    def __init__(self, row: Any, col: Any, valid: Any) -> None:
        self.row = row
        self.col = col
        self.valid = valid

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0, 1))
        a, b = inputs
        return utils.force_array((a[self.row] * b[self.col]).sum(axis=1) * self.valid,
                                 a.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        a, b = self.get_retained_inputs()
        g, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(CooMatMul(self.row, self.col, self.valid, a.shape[0]).apply(
                    (g, b))[0])
            else:
                ret.append(CooMatMul(self.col, self.row, self.valid, b.shape[0]).apply(
                    (g, a))[0])
        return tuple(ret)


def _is_coo(x: Any) -> bool:
    return all(hasattr(x, n) for n in ('data', 'row', 'col', 'shape', 'order')) and \
        isinstance(x.data, Variable)


def _sparse_dense(sp: Any, dn: Any, trans_s: bool, trans_d: bool) -> Variable:
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.transpose import transpose

    dn = as_variable(dn)
    data = sp.data
    batched = data.ndim == 2
    if dn.ndim != (3 if batched else 2):
        raise ValueError(f'sparse_matmul: a {"batched" if batched else "2-D"} sparse matrix '
                         f'needs a {3 if batched else 2}-D dense operand, not {dn.ndim}-D')
    if trans_d:
        dn = transpose(dn, (0, 2, 1) if batched else (1, 0))
    rows, cols = (sp.col, sp.row) if trans_s else (sp.row, sp.col)
    m, k = (sp.shape[1], sp.shape[0]) if trans_s else sp.shape
    n_batch = data.shape[0] if batched else 1
    if batched and dn.shape[0] != n_batch:
        raise ValueError(f'sparse_matmul: batch sizes differ ({n_batch} and {dn.shape[0]})')
    if dn.shape[-2] != k:
        raise ValueError(f'sparse_matmul: inner dimensions differ ({k} and {dn.shape[-2]})')
    n = dn.shape[-1]
    xp = backend.get_array_module(data.array)
    valid = (rows >= 0) & (cols >= 0)
    if batched:
        b = xp.arange(n_batch)[:, None]
        rows = rows + b * m
        cols = cols + b * k
    row_g = xp.where(valid, rows, 0).reshape(-1)
    col_g = xp.where(valid, cols, 0).reshape(-1)
    valid_f = valid.reshape(-1).astype(data.dtype)
    y = CooMatMul(row_g, col_g, valid_f, n_batch * m).apply(
        (data, reshape(dn, (n_batch * k, n))))[0]
    return reshape(y, (n_batch, m, n)) if batched else y


def sparse_matmul(a: Any, b: Any, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix product of a sparse :class:`CooMatrix` and a dense variable.

    Exactly one of ``a`` and ``b`` is sparse. A 1-D COO matrix goes with a 2-D dense one;
    a batched (2-D ``data``) one with a 3-D dense batch of the same size.

    Args:
        a: the left operand (CooMatrix or variable).
        b: the right operand (CooMatrix or variable).
        transa, transb: transpose (each matrix of) ``a`` / ``b`` first.

    Returns:
        The dense product (a variable), differentiable w.r.t. the dense operand and the
        values ``data`` of the sparse one.

    Raises:
        ValueError: for mismatched shapes, or unless exactly one operand is sparse.
    """
    from chainer.functions.array.transpose import transpose

    if _is_coo(a) and not _is_coo(b):
        return _sparse_dense(a, b, transa, transb)
    if _is_coo(b) and not _is_coo(a):
        # op(A) @ op(B) == (op(B)^T @ op(A)^T)^T
        yt = _sparse_dense(b, a, not transb, not transa)
        return transpose(yt, (0, 2, 1) if yt.ndim == 3 else (1, 0))
    raise ValueError('sparse_matmul takes exactly one sparse (CooMatrix) operand')
