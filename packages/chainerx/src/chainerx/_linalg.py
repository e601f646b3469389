"""Matrix products: ``dot`` and ``matmul``."""

from __future__ import annotations

from typing import Any

import numpy

from chainerx import _creation, _dtypes, _graph, _manipulation, _math
from chainerx._array import check_same_device, ndarray
from chainerx._errors import DimensionError


def _operands(a: Any, b: Any) -> tuple[ndarray, ndarray, Any, Any]:
    if not isinstance(a, ndarray) or not isinstance(b, ndarray):
        raise TypeError('matrix products need two chainerx.ndarray operands')
    check_same_device(a, b)
    dtype = _dtypes.promote_dtypes([a.dtype, b.dtype])
    if dtype.kind == 'b':  # products of bools: any pair of trues (computed as counts)
        dtype = numpy.dtype(numpy.int64)
    return a, b, a._data.astype(dtype, copy=False), b._data.astype(dtype, copy=False)


def _product_dtype(a: ndarray, b: ndarray, data: Any) -> Any:
    if a.dtype.kind == 'b' and b.dtype.kind == 'b':
        return data != 0
    return data


def matmul(a: Any, b: Any) -> ndarray:
    """The matrix product as NumPy's ``matmul`` (stacks of matrices broadcast)."""
    a, b, da, db = _operands(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise DimensionError('matmul does not take 0-d arrays')
    try:
        with a._device._scope():
            data = _product_dtype(a, b, a._device.xp.matmul(da, db))
    except ValueError as e:
        raise DimensionError(str(e)) from e
    out = _math._wrap(data, a._device)
    if a._nodes or b._nodes:

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            gy = gys[0]
            a2 = _manipulation.reshape(a, (1, a.size)) if a.ndim == 1 else a
            b2 = _manipulation.reshape(b, (b.size, 1)) if b.ndim == 1 else b
            batch = gy.shape[:gy.ndim - (a.ndim >= 2) - (b.ndim >= 2)]
            g2 = _manipulation.reshape(gy, batch + (a2.shape[-2], b2.shape[-1]))
            ga = gb = None
            if need[0]:
                ga = matmul(g2, _manipulation.swapaxes(b2, -1, -2))
                ga = _math.sum_to(ga, a2) if ga.shape != a2.shape else ga
                ga = _math.astype(_manipulation.reshape(ga, a.shape), a.dtype, False)
            if need[1]:
                gb = matmul(_manipulation.swapaxes(a2, -1, -2), g2)
                gb = _math.sum_to(gb, b2) if gb.shape != b2.shape else gb
                gb = _math.astype(_manipulation.reshape(gb, b.shape), b.dtype, False)
            return [ga, gb]

        _graph.record((a, b), (out,), backward)
    return out


def dot(a: Any, b: Any) -> ndarray:
    """NumPy's ``dot``: products of scalars, vectors and matrices; for N-d arrays, the
    sum over the last axis of *a* and the second-to-last of *b*."""
    if not isinstance(a, ndarray) or not isinstance(b, ndarray):
        raise TypeError('dot needs two chainerx.ndarray operands')
    if a.ndim == 0 or b.ndim == 0:
        return _math.multiply(a, b)
    b_axis = b.ndim - 2 if b.ndim >= 2 else 0
    if a.shape[-1] != b.shape[b_axis]:
        raise DimensionError(f'dot: shapes {a.shape} and {b.shape} are not aligned')
    out_shape = a.shape[:-1] + b.shape[:b_axis] + b.shape[b_axis + 1:]
    if 0 in out_shape:
        # no element to compute: NumPy's empty result (its layout), zero gradients
        a, b, da, db = _operands(a, b)
        with a._device._scope():
            out = _math._wrap(_product_dtype(a, b, a._device.xp.dot(da, db)), a._device)
        _graph.record((a, b), (out,), lambda gys, need: [
            _creation.zeros_like(a) if need[0] else None,
            _creation.zeros_like(b) if need[1] else None])
        return out
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(a, b)
    # N-d: move b's contracted axis first, flatten both sides, one matrix product
    k = a.shape[-1]
    bt = _manipulation.moveaxis(b, b_axis, 0)
    rows = a.size // k if k else int(numpy.prod(a.shape[:-1]))
    cols = bt.size // k if k else int(numpy.prod(bt.shape[1:]))
    a2 = _manipulation.reshape(a, (rows, k))
    b2 = _manipulation.reshape(bt, (k, cols))
    return _manipulation.reshape(matmul(a2, b2), out_shape)



