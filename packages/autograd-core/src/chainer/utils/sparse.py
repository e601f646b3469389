"""Sparse matrices in coordinate (COO) format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend

if TYPE_CHECKING:
    from chainer.types import NdArray, VariableOrArray

__all__ = ['CooMatrix', 'get_order', 'to_coo']

_ORDERS = ('C', 'F', 'other')


def _sorted_rows(a: Any) -> bool:
    """Whether each row of the 2-D integer array ``a`` is non-decreasing, padding aside."""
    if a.shape[-1] <= 1:
        return True
    xp = backend.get_array_module(a)
    valid = a >= 0
    # Padding (-1) comes last: ignore pairs whose second element is padding.
    pair_ok = (a[:, 1:] >= a[:, :-1]) | ~valid[:, 1:]
    return bool(xp.all(pair_ok))


def get_order(row: NdArray, col: NdArray) -> str:
    """The order of COO entries: ``'C'`` (row indices sorted), ``'F'`` (column
    indices sorted) or ``'other'``.

    Args:
        row, col: the row and column indices, 1-D or 2-D (a batch); negative
            entries are padding and ignored.

    Raises:
        ValueError: when the shapes differ or an entry is padding in only one of them.
    """
    if row.shape != col.shape:
        raise ValueError(f'row and col must have one shape, not {row.shape} and {col.shape}')
    xp = backend.get_array_module(row)
    if bool(xp.any((row < 0) != (col < 0))):
        raise ValueError('row and col must have their padding (negative indices) at the same '
                         'places')
    row2 = row.reshape(1, -1) if row.ndim == 1 else row
    col2 = col.reshape(1, -1) if col.ndim == 1 else col
    if _sorted_rows(row2):
        return 'C'
    if _sorted_rows(col2):
        return 'F'
    return 'other'


class CooMatrix:
    """A sparse matrix, or a batch of them, in COO format.

    Args:
        data: the entries, 1-D ``(nnz,)`` or 2-D ``(batch, nnz)``.
        row: their row indices (same shape; negative entries are padding).
        col: their column indices (same shape).
        shape: ``(rows, columns)`` of the dense matrix.
        order: ``'C'`` (row indices sorted), ``'F'`` (column indices sorted),
            ``'other'``, or None to detect it with :func:`get_order`.
        requires_grad: whether the entries (``self.data``, a Variable) need a
            gradient in backpropagation.

    Raises:
        ValueError: for inconsistent shapes or an unknown order.
    """

    def __init__(self, data: VariableOrArray, row: NdArray, col: NdArray, shape: Sequence[int],
                 order: str | None = None, requires_grad: bool = False) -> None:
        array = data.array if isinstance(data, chainer.Variable) else data
        if not 1 <= array.ndim <= 2:
            raise ValueError(f'data must be 1-D or 2-D, not {array.ndim}-D')
        if not array.shape == row.shape == col.shape:
            raise ValueError(f'data, row and col must have one shape, not {array.shape}, '
                             f'{row.shape} and {col.shape}')
        if row.dtype.kind not in 'iu' or col.dtype.kind not in 'iu':
            raise ValueError('row and col must be integer arrays')
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or min(shape) < 0:
            raise ValueError(f'shape must be two non-negative ints, not {shape}')
        if order is None:
            order = get_order(row, col)
        elif order not in _ORDERS:
            raise ValueError(f'order must be one of {_ORDERS} or None, not {order!r}')
        self.data = chainer.Variable(array, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = shape
        self.order = order

    def to_dense(self) -> Any:
        """The dense array: ``shape``, or ``(batch,) + shape`` for a batch.

        Entries at the same position are summed.
        """
        data = self.data.array
        xp = backend.get_array_module(data)
        valid = (self.row >= 0) & (self.col >= 0)
        if data.ndim == 1:
            out = xp.zeros(self.shape, dtype=data.dtype)
            index: tuple[Any, ...] = (self.row[valid], self.col[valid])
        else:
            out = xp.zeros((data.shape[0],) + self.shape, dtype=data.dtype)
            batch = xp.broadcast_to(xp.arange(data.shape[0])[:, None], data.shape)
            index = (batch[valid], self.row[valid], self.col[valid])
        if xp is numpy:
            numpy.add.at(out, index, data[valid])
        else:
            import cupyx  # layout: optional

            cupyx.scatter_add(out, index, data[valid])
        return out

    def __repr__(self) -> str:
        return (f'<CooMatrix shape={self.shape} entries={self.data.shape} '
                f'dtype={self.data.dtype} order={self.order}>')


def to_coo(x: VariableOrArray, ldnz: int | None = None, requires_grad: bool = False) -> CooMatrix:
    """The nonzero entries of a dense matrix (2-D) or batch of matrices (3-D) as a COO matrix.

    Args:
        x: the dense array (or Variable).
        ldnz: the number of stored entries per matrix; the actual number is
            ``max(nnz, ldnz)``, where ``nnz`` is the (largest) number of
            nonzeros. Unused entries have value 0 and index -1.
        requires_grad: whether the entries need a gradient.

    Raises:
        ValueError: when ``x`` is not 2-D or 3-D.
    """
    if isinstance(x, chainer.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    if x.ndim not in (2, 3):
        raise ValueError(f'to_coo takes a 2-D matrix or a 3-D batch, not a {x.ndim}-D array')
    batch = x[None] if x.ndim == 2 else x
    nb = batch.shape[0]
    b, r, c = xp.nonzero(batch)
    counts = xp.bincount(b, minlength=nb) if b.size else xp.zeros(nb, dtype=numpy.int64)
    nnz = int(counts.max()) if nb else 0
    size = max(nnz, ldnz or 0)
    data = xp.zeros((nb, size), dtype=x.dtype)
    row = xp.full((nb, size), -1, dtype=numpy.int32)
    col = xp.full((nb, size), -1, dtype=numpy.int32)
    # Position of each nonzero within its own matrix.
    pos = xp.arange(b.size) - (xp.cumsum(counts) - counts)[b]
    data[b, pos] = batch[b, r, c]
    row[b, pos] = r
    col[b, pos] = c
    if x.ndim == 2:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(data, row, col, x.shape[-2:], order='C', requires_grad=requires_grad)
