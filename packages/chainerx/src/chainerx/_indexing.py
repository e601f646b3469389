"""Indexing: ``a[key]`` (basic and integer/bool array indexing, as NumPy),
``a[key] = value``, ``take`` and the scatter-add that is their gradient."""

from __future__ import annotations

from typing import Any

import numpy

from chainerx import _creation, _graph, _manipulation, _math
from chainerx._array import check_same_device, make, ndarray
from chainerx._errors import DimensionError


def _backend_key(key: Any, a: ndarray) -> Any:
    """*key* with ChainerX arrays and lists replaced by backend arrays."""
    if isinstance(key, tuple):
        return tuple(_backend_key(k, a) for k in key)
    if isinstance(key, ndarray):
        check_same_device(a, key)
        return key._data
    if isinstance(key, list):
        host = numpy.asarray(key)
        return host if a._device.xp is numpy else a._device.xp.asarray(host)
    return key


def _scatter(xp: Any, target: Any, key: Any, values: Any) -> None:
    if xp is numpy:
        numpy.add.at(target, key, values)
    else:
        import cupyx  # layout: optional

        cupyx.scatter_add(target, key, values)


def index_add(base: ndarray, key: Any, values: ndarray) -> ndarray:
    """A copy of *base* with *values* added at ``[key]`` (repeated indices add up);
    differentiable in *base* and *values*."""
    device = check_same_device(base, values)
    with device._scope():
        data = base._data.copy()
        _scatter(device.xp, data, key, values._data.astype(data.dtype, copy=False))
    out = make(data, device)
    if base._nodes or values._nodes:

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            g = gys[0]
            gv = _getitem_backend(g, key) if need[1] else None
            return [g, None if gv is None else _math.sum_to(gv, values)]

        _graph.record((base, values), (out,), backward)
    return out


def scatter_add(base: ndarray, indices: ndarray, values: ndarray) -> ndarray:
    """*base* (1-d) with *values* added at integer *indices*."""
    return index_add(base, indices._data, values)


def _getitem_backend(a: ndarray, key: Any) -> ndarray:
    data = a._data[key]
    if not hasattr(data, 'shape') or isinstance(data, numpy.generic):
        data = a._device.xp.asarray(data)
    out = make(data, a._device)
    if a._nodes:

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            zeros = _creation.zeros(a.shape, gys[0].dtype, device=a._device)
            return [index_add(zeros, key, gys[0])]

        _graph.record((a,), (out,), backward)
    return out


def getitem(a: ndarray, key: Any) -> ndarray:
    """``a[key]``: a view for basic indexing (ints, slices, None, Ellipsis), a copy for
    integer or bool array indexing."""
    if a.ndim == 0 and isinstance(key, int):
        raise IndexError('a 0-d array cannot be indexed by an integer')
    try:
        return _getitem_backend(a, _backend_key(key, a))
    except IndexError as e:
        raise IndexError(str(e)) from e


def setitem(a: ndarray, key: Any, value: Any) -> None:
    """``a[key] = value`` in place (not allowed on an array recorded in a graph)."""
    a._check_writable()
    k = _backend_key(key, a)
    if isinstance(value, ndarray):
        check_same_device(a, value)
        a._data[k] = value._data
    else:
        a._data[k] = value


def take(a: ndarray, indices: Any, axis: int | None = None, mode: str = 'wrap') -> ndarray:
    """Elements of *a* at integer *indices* along *axis* (of the flattened *a* if None);
    out-of-range indices wrap around (*mode* ``'wrap'``) or are clipped (``'clip'``)."""
    if axis is None:
        a = _manipulation.ravel(a)
        axis = 0
    if not -a.ndim <= axis < a.ndim:
        raise DimensionError(f'axis {axis} is out of bounds for {a.ndim} dimensions')
    axis %= a.ndim
    if isinstance(indices, ndarray):
        check_same_device(a, indices)
        idx = indices._data
    else:
        idx = a._device.xp.asarray(numpy.asarray(indices))
    if idx.dtype.kind not in 'iu':
        idx = idx.astype(numpy.int64)
    n = a.shape[axis]
    if mode == 'wrap':
        idx = idx % n if n else idx
    elif mode == 'clip':
        idx = idx.clip(0, n - 1)
    elif mode != 'raise':
        raise ValueError(f"mode must be 'wrap', 'clip' or 'raise', not {mode!r}")
    key = (slice(None),) * axis + (idx,)
    out = _getitem_backend(a, key)
    # C-contiguous, as NumPy's take (indexing after a slice lays the indexed axis first)
    return out if out.is_contiguous else _creation.copy_(out)


def nonzero(a: ndarray) -> tuple[ndarray, ...]:
    """The indices of the non-zero elements, one int64 array per axis (a 0-d array counts
    as 1-d)."""
    data = a._data if a.ndim else a._data.reshape(1)
    with a._device._scope():
        found = a._device.xp.nonzero(data)
    return tuple(make(i.astype(numpy.int64, copy=False), a._device) for i in found)
