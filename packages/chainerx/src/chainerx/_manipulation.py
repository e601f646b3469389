"""Shape and arrangement: reshape, transpose, squeeze, broadcast, join, split, flip,
diagonals. Views where NumPy gives views."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, Literal

import numpy

from chainerx import _creation, _dtypes, _graph, _indexing, _math, _reduction
from chainerx._array import check_same_device, make, ndarray
from chainerx._errors import DimensionError, DtypeError


def _one(x: ndarray, data: Any, backward: Any) -> ndarray:
    """Wrap *data* of a routine on *x* and record its *backward* (gy -> gx)."""
    out = make(data, x._device)
    if x._nodes:
        _graph.record((x,), (out,), lambda gys, need: [backward(gys[0])])
    return out


def view(x: ndarray) -> ndarray:
    """A view of *x* (gradient: identity)."""
    return _one(x, x._data.view(), lambda gy: gy)


def reshape(a: ndarray, newshape: Any) -> ndarray:
    """*a* with shape *newshape* (one entry may be -1); a view where possible."""
    if isinstance(newshape, numbers.Integral):
        newshape = (int(newshape),)
    shape = a.shape
    try:
        data = a._data.reshape(tuple(newshape))
    except ValueError as e:
        raise DimensionError(f'cannot reshape array of shape {shape} into {newshape}') from e
    if data.shape == shape and data is a._data:
        data = data.view()
    return _one(a, data, lambda gy: reshape(gy, shape))


def ravel(a: ndarray) -> ndarray:
    """*a* as 1-d (a view where possible)."""
    return reshape(a, (a.size,))


def _axes(axes: Any, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(reversed(range(ndim)))
    if isinstance(axes, numbers.Integral):
        axes = (axes,)
    perm = tuple(int(i) % ndim if -ndim <= int(i) < ndim else ndim + 10 for i in axes)
    if sorted(perm) != list(range(ndim)):
        raise DimensionError(f'invalid axes {tuple(axes)} for {ndim} dimensions')
    return perm


def transpose(a: ndarray, axes: Any = None) -> ndarray:
    """*a* with its axes permuted (default: reversed); a view."""
    perm = _axes(axes, a.ndim)
    inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
    return _one(a, a._data.transpose(perm), lambda gy: transpose(gy, inverse))


def _axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise DimensionError(f'axis {axis} is out of bounds for {ndim} dimensions')
    return axis % ndim


def swapaxes(a: ndarray, axis1: int, axis2: int) -> ndarray:
    """*a* with two axes exchanged (a view)."""
    i, j = _axis(axis1, a.ndim), _axis(axis2, a.ndim)
    perm = list(range(a.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


def moveaxis(a: ndarray, source: Any, destination: Any) -> ndarray:
    """*a* with axes *source* moved to positions *destination* (a view)."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise DimensionError('source and destination need the same number of axes')
    src = [_axis(s, a.ndim) for s in src]
    dst = [_axis(d, a.ndim) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise DimensionError('repeated axis in moveaxis')
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


def rollaxis(a: ndarray, axis: int, start: int = 0) -> ndarray:
    """*a* with *axis* rolled back to position *start* (a view)."""
    n = a.ndim
    axis = _axis(axis, n)
    if not -n <= start <= n:
        raise DimensionError(f'start {start} is out of bounds for {n} dimensions')
    start = start % (n + 1) if start < 0 else start
    if axis < start:
        start -= 1
    order = [i for i in range(n) if i != axis]
    order.insert(start, axis)
    return transpose(a, order)


def squeeze(a: ndarray, axis: Any = None) -> ndarray:
    """*a* without axes of length 1 (those of *axis*, or all)."""
    shape = a.shape
    if axis is None:
        axes = tuple(i for i, n in enumerate(shape) if n == 1)
    else:
        axes = _reduction.normalize_axes(axis, a.ndim)
        for i in axes:
            if shape[i] != 1:
                raise DimensionError(f'cannot squeeze axis {i} of length {shape[i]}')
    return _shape_view(a, a._device.xp.squeeze(a._data, axis=axes))


def _shape_view(a: ndarray, data: Any) -> ndarray:
    """*data*, a view of *a*'s elements in another shape (as NumPy lays it out: a new axis
    has stride 0, a squeezed one keeps the others' strides); gradient: reshaped back."""
    shape = a.shape
    return _one(a, data, lambda gy: reshape(gy, shape))


def expand_dims(a: ndarray, axis: int) -> ndarray:
    """*a* with a new axis of length 1 at *axis* (a view)."""
    ax = _axis(axis, a.ndim + 1)
    return _shape_view(a, a._device.xp.expand_dims(a._data, ax))


def broadcast_to(array: ndarray, shape: Any) -> ndarray:
    """*array* broadcast to *shape* (a read-only view)."""
    shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(shape)
    try:
        data = array._device.xp.broadcast_to(array._data, shape)
    except ValueError as e:
        raise DimensionError(f'cannot broadcast {array.shape} to {shape}') from e
    return _one(array, data, lambda gy: _math.sum_to(gy, array))


def flip(m: ndarray, axis: Any = None) -> ndarray:
    """*m* with the order of elements along *axis* (default: all) reversed (a view)."""
    axes = _reduction.normalize_axes(axis, m.ndim)
    key = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))
    return _one(m, m._data[key], lambda gy: flip(gy, axes))


def fliplr(m: ndarray) -> ndarray:
    """*m* with axis 1 reversed."""
    if m.ndim < 2:
        raise DimensionError('fliplr needs at least 2 dimensions')
    return flip(m, 1)


def flipud(m: ndarray) -> ndarray:
    """*m* with axis 0 reversed."""
    if m.ndim < 1:
        raise DimensionError('flipud needs at least 1 dimension')
    return flip(m, 0)


def _join(arrays: Sequence[ndarray], data: Any, axis: int, sizes: list[int]) -> ndarray:
    arrays = list(arrays)
    out = make(data, arrays[0]._device)
    if any(a._nodes for a in arrays):

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            parts = split(gys[0], _offsets(sizes), axis)
            return [_math.astype(g, a.dtype, False) for g, a in zip(parts, arrays)]

        _graph.record(arrays, (out,), backward)
    return out


def _offsets(sizes: list[int]) -> list[int]:
    out, total = [], 0
    for s in sizes[:-1]:
        total += s
        out.append(total)
    return out


def concatenate(arrays: Sequence[ndarray], axis: int | None = 0) -> ndarray:
    """*arrays* joined along an existing *axis* (None: flattened first)."""
    arrays = list(arrays)
    if not arrays:
        raise DimensionError('concatenate needs at least one array')
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    device = check_same_device(*arrays)
    ndim = arrays[0].ndim
    if ndim == 0:
        raise DimensionError('zero-dimensional arrays cannot be concatenated')
    ax = _axis(axis, ndim)
    dtype = _dtypes.promote_dtypes([a.dtype for a in arrays])
    try:
        with device._scope():
            data = device.xp.concatenate([a._data.astype(dtype, copy=False) for a in arrays],
                                         axis=ax)
    except ValueError as e:
        raise DimensionError(str(e)) from e
    return _join(arrays, data, ax, [a.shape[ax] for a in arrays])


def stack(arrays: Sequence[ndarray], axis: int = 0) -> ndarray:
    """*arrays* (of one shape) joined along a new *axis*."""
    arrays = list(arrays)
    if not arrays:
        raise DimensionError('stack needs at least one array')
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise DimensionError('stack needs arrays of one shape')
    ax = _axis(axis, len(shape) + 1)
    return concatenate([expand_dims(a, ax) for a in arrays], ax)


def hstack(arrays: Sequence[ndarray]) -> ndarray:
    """Join along axis 1 (axis 0 for 1-d arrays)."""
    arrays = [atleast_1d(a) for a in arrays]
    if not arrays:
        raise DimensionError('hstack needs at least one array')
    return concatenate(arrays, 0 if arrays[0].ndim == 1 else 1)


def vstack(arrays: Sequence[ndarray]) -> ndarray:
    """Join along axis 0 (1-d arrays as rows)."""
    return concatenate([atleast_2d(a) for a in arrays], 0)


def dstack(arrays: Sequence[ndarray]) -> ndarray:
    """Join along axis 2 (as 3-d arrays)."""
    return concatenate([atleast_3d(a) for a in arrays], 2)


def atleast_1d(a: ndarray) -> ndarray:
    """*a* as at least 1-d (a view)."""
    return a if a.ndim >= 1 else _shape_view(a, a._device.xp.atleast_1d(a._data))


def atleast_2d(a: ndarray) -> ndarray:
    """*a* as at least 2-d (a 1-d array becomes a row; a view)."""
    return a if a.ndim >= 2 else _shape_view(a, a._device.xp.atleast_2d(a._data))


def atleast_3d(a: ndarray) -> ndarray:
    """*a* as at least 3-d (``(N,)`` -> ``(1, N, 1)``, ``(M, N)`` -> ``(M, N, 1)``; a
    view)."""
    return a if a.ndim >= 3 else _shape_view(a, a._device.xp.atleast_3d(a._data))


def split(ary: ndarray, indices_or_sections: Any, axis: int = 0) -> list[ndarray]:
    """Views of *ary* split along *axis*: into equal sections (an int) or at indices
    (NumPy's rules, and its errors, for both)."""
    ax = _axis(axis, ary.ndim)
    n = ary.shape[ax]
    if isinstance(indices_or_sections, str):
        raise TypeError('split takes a number of sections or a sequence of indices')
    try:
        # NumPy's split of the positions gives each piece's range (and NumPy's errors)
        positions = numpy.split(numpy.arange(n), indices_or_sections)
    except ValueError as e:
        raise DimensionError(str(e)) from e
    bounds = [(int(p[0]), int(p[-1]) + 1) if p.size else (0, 0) for p in positions]
    keys = []
    for start, stop in bounds:
        key = [slice(None)] * ary.ndim
        key[ax] = slice(start, stop)
        keys.append(tuple(key))
    outs = [make(ary._data[k], ary._device) for k in keys]
    if ary._nodes:

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            gx = _creation.zeros(ary.shape, gys[0].dtype, device=ary._device)
            for k, g in zip(keys, gys):
                gx = _indexing.index_add(gx, k, g)
            return [gx]

        _graph.record((ary,), outs, backward)
    return outs


def hsplit(ary: ndarray, indices_or_sections: Any) -> list[ndarray]:
    """Split along axis 1 (axis 0 for 1-d)."""
    return split(ary, indices_or_sections, 0 if ary.ndim == 1 else 1)


def vsplit(ary: ndarray, indices_or_sections: Any) -> list[ndarray]:
    """Split along axis 0."""
    if ary.ndim < 2:
        raise DimensionError('vsplit needs at least 2 dimensions')
    return split(ary, indices_or_sections, 0)


def dsplit(ary: ndarray, indices_or_sections: Any) -> list[ndarray]:
    """Split along axis 2."""
    if ary.ndim < 3:
        raise DimensionError('dsplit needs at least 3 dimensions')
    return split(ary, indices_or_sections, 2)


def diagonal(a: ndarray, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:
    """The diagonal *offset* of the plane of *axis1* and *axis2* (a view)."""
    data = a._device.xp.diagonal(a._data, offset, axis1, axis2)
    if not data.flags.writeable and a._data.flags.writeable:
        data.setflags(write=True)  # a view like any other (NumPy makes it read-only)

    def backward(gy: ndarray) -> ndarray:
        index = a._device.xp.arange(a.size).reshape(a.shape)
        flat = a._device.xp.diagonal(index, offset, axis1, axis2)
        base = _creation.zeros((a.size,), gy.dtype, device=a._device)
        flat_gx = _indexing.scatter_add(base, make(flat.ravel(), a._device), ravel(gy))
        return reshape(flat_gx, a.shape)

    return _one(a, data, backward)


def diagflat(v: ndarray, k: int = 0) -> ndarray:
    """A 2-d array with the flattened *v* on diagonal *k*."""
    flat = ravel(v)
    data = v._device.xp.diagflat(flat._data, k)
    return _one(flat, data, lambda gy: reshape(diagonal(gy, k), (flat.size,)))


def diag(v: ndarray, k: int = 0) -> ndarray:
    """Diagonal *k* of a 2-d array, or a 2-d array with 1-d *v* on diagonal *k*."""
    if v.ndim == 1:
        return diagflat(v, k)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError(f'diag needs a 1-d or 2-d array, not {v.ndim}-d')


def repeat(a: ndarray, repeats: Any, axis: int | None = None) -> ndarray:
    """Each element of *a* repeated (along *axis*, or of the flattened array)."""
    if axis is None:
        a = ravel(a)
        axis = 0
    ax = _axis(axis, a.ndim)
    index = a._device.xp.repeat(a._device.xp.arange(a.shape[ax]), repeats)
    return _indexing.take(a, make(index, a._device), ax)


Casting = Literal['no', 'equiv', 'safe', 'same_kind', 'unsafe']
_CASTINGS = ('no', 'equiv', 'safe', 'same_kind', 'unsafe')


def copyto(dst: ndarray, src: Any, casting: Casting = 'same_kind', where: Any = True) -> None:
    """Copy *src* (broadcast) into *dst* where *where* holds, NumPy's *casting* rules
    deciding which dtypes may be copied (not recorded in graphs).

    Raises:
        ValueError: an unknown *casting*.
        DtypeError: a copy the casting rule forbids.
    """
    if casting not in _CASTINGS:
        raise ValueError(f'casting must be one of {_CASTINGS}, not {casting!r}')
    dst._check_writable()
    xp = dst._device.xp
    if isinstance(src, ndarray):
        check_same_device(dst, src)
        src_data: Any = src._data
    else:
        src_data = src
    where_data = where._data if isinstance(where, ndarray) else where
    src_dtype = getattr(src_data, 'dtype', None)
    if src_dtype is not None and not numpy.can_cast(src_dtype, dst.dtype, casting):
        raise DtypeError(f'cannot copy {src_dtype.name} into {dst.dtype.name} with casting '
                         f'{casting!r}')
    with dst._device._scope():
        xp.copyto(dst._data, src_data, casting=casting, where=where_data)
