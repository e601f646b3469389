"""Array creation: from data, filled, ranges, matrices, copies, device transfer."""

from __future__ import annotations

import numbers
from typing import Any

import numpy

from chainerx import _dtypes, _graph
from chainerx._array import make, ndarray
from chainerx._device import Device, resolve
from chainerx._errors import ChainerxError, DimensionError, DtypeError


def normalize_shape(shape: Any) -> tuple[int, ...]:
    """A shape given as an int or a sequence of ints, as a tuple."""
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _host_to(data: Any, device: Device) -> Any:
    """Backend data of *device* from host or other-device data (copied only if needed)."""
    xp = device.xp
    if xp is numpy:
        if isinstance(data, numpy.ndarray):
            return data
        return data.get()
    with device._scope():
        return xp.asarray(data)


def _from_object(obj: Any, dtype: Any, device: Device, copy: bool) -> ndarray:
    if isinstance(obj, ndarray):
        out = obj
        if obj._device is not device:
            out = to_device(obj, device)
            copy = False
        if dtype is not None:
            target = _dtypes.to_dtype(dtype)
            if target != out.dtype:
                return out.astype(target)
        return copy_(out) if copy else out
    dt = None if dtype is None else _dtypes.to_dtype(dtype)
    if device.xp is numpy or isinstance(obj, numpy.ndarray | list | tuple | numbers.Number):
        host = numpy.array(obj, dtype=dt, copy=True) if copy else numpy.asarray(obj, dtype=dt)
        if host.dtype not in _dtypes.ALL_DTYPES:
            host = host.astype(_dtypes.to_dtype(host.dtype))
        data = _host_to(host, device)
    else:
        with device._scope():
            data = device.xp.array(obj, dtype=dt, copy=copy)
    return make(data, device)


def array(object: Any, dtype: Any = None, copy: bool = True, device: Any = None) -> ndarray:
    """An array from *object* (nested sequences, a NumPy or ChainerX array), copied
    unless *copy* is False and no conversion is needed."""
    return _from_object(object, dtype, resolve(device), copy)


def asarray(a: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """*a* as an array, without a copy where possible (a NumPy array on a native device
    keeps its memory and strides)."""
    return _from_object(a, dtype, resolve(device), False)


asanyarray = asarray


def ascontiguousarray(a: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """*a* as a C-contiguous array, at least 1-d (copied only if it is not); a ChainerX
    array stays on its device unless *device* is given."""
    if device is None and isinstance(a, ndarray):
        device = a._device
    out = asarray(a, dtype, device)
    if out.ndim == 0:  # as NumPy's: at least 1-d
        from chainerx import _manipulation

        return _manipulation.reshape(copy_(out), (1,))
    if out.is_contiguous:
        return out
    return copy_(out)


def empty(shape: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """An uninitialized array (default dtype float32)."""
    dev = resolve(device)
    with dev._scope():
        return make(dev.xp.empty(normalize_shape(shape), _dtypes.to_dtype(dtype)), dev)


def zeros(shape: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """An array of zeros (default dtype float32)."""
    dev = resolve(device)
    with dev._scope():
        return make(dev.xp.zeros(normalize_shape(shape), _dtypes.to_dtype(dtype)), dev)


def ones(shape: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """An array of ones (default dtype float32)."""
    dev = resolve(device)
    with dev._scope():
        return make(dev.xp.ones(normalize_shape(shape), _dtypes.to_dtype(dtype)), dev)


def full(shape: Any, fill_value: Any, dtype: Any = None, device: Any = None) -> ndarray:
    """An array filled with *fill_value* (default dtype from the value: bool, int32 or
    float32)."""
    dev = resolve(device)
    if isinstance(fill_value, ndarray):
        fill_value = fill_value.item()
    dt = _dtypes.default_dtype(fill_value) if dtype is None else _dtypes.to_dtype(dtype)
    with numpy.errstate(invalid='ignore', over='ignore'):
        value = numpy.array(fill_value).astype(dt)  # NumPy's cast (inf or nan into ints)
    with dev._scope():
        data = dev.xp.empty(normalize_shape(shape), dt)
        data.fill(value)
    return make(data, dev)


def _like(a: ndarray, dtype: Any, device: Any) -> tuple[Any, numpy.dtype, Device]:
    dev = a._device if device is None else resolve(device)
    return a.shape, a.dtype if dtype is None else _dtypes.to_dtype(dtype), dev


def empty_like(a: ndarray, device: Any = None) -> ndarray:
    """An uninitialized array of *a*'s shape and dtype."""
    return empty(*_like(a, None, device))


def zeros_like(a: ndarray, device: Any = None) -> ndarray:
    """Zeros of *a*'s shape and dtype."""
    return zeros(*_like(a, None, device))


def ones_like(a: ndarray, device: Any = None) -> ndarray:
    """Ones of *a*'s shape and dtype."""
    return ones(*_like(a, None, device))


def full_like(a: ndarray, fill_value: Any, device: Any = None) -> ndarray:
    """*fill_value* in *a*'s shape and dtype."""
    shape, dt, dev = _like(a, None, device)
    return full(shape, fill_value, dt, dev)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None,
           device: Any = None) -> ndarray:
    """Evenly spaced values in ``[start, stop)`` (default dtype from the arguments:
    int32 for ints, float32 for floats)."""
    dev = resolve(device)
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ChainerxError('arange: step must not be 0')
    if dtype is None:
        kinds = [_dtypes.scalar_kind_rank(v) for v in (start, stop, step)]
        dt = (_dtypes.BOOL, _dtypes.INT32, _dtypes.FLOAT32)[max(kinds)]
    else:
        dt = _dtypes.to_dtype(dtype)
    if dt == _dtypes.BOOL:
        n = max(0, int(numpy.ceil((float(stop) - float(start)) / float(step))))
        if n > 2:
            raise DtypeError('arange of bool can have at most 2 elements')
        host = numpy.array([bool(start + i * step) for i in range(n)], dtype=dt)
        return make(_host_to(host, dev), dev)
    with dev._scope():
        if dt.kind == 'f':
            data = dev.xp.arange(start, stop, step, dtype=numpy.float64).astype(dt)
        else:  # NumPy's integer ranges: the first two values cast, then their step
            data = dev.xp.arange(start, stop, step, dtype=dt)
    return make(data, dev)


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
             device: Any = None) -> ndarray:
    """*num* evenly spaced values from *start* to *stop* (default dtype float32)."""
    if num < 0:
        raise ValueError(f'linspace: num must not be negative ({num})')
    dev = resolve(device)
    dt = _dtypes.to_dtype(dtype)
    with dev._scope():
        data = dev.xp.linspace(start, stop, num, endpoint=endpoint, dtype=numpy.float64)
        if dt.kind in 'iu':
            data = dev.xp.floor(data)  # NumPy rounds integer steps toward -inf
        return make(data.astype(dt), dev)


def _check_count(name: str, value: Any) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f'{name} must be an int, not {type(value).__name__}')
    if value < 0:
        raise DimensionError(f'{name} must not be negative ({value})')
    return int(value)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None,
        device: Any = None) -> ndarray:
    """A 2-d array with ones on diagonal *k* (default dtype float32)."""
    n = _check_count('N', N)
    m = n if M is None else _check_count('M', M)
    if not isinstance(k, numbers.Integral):
        raise TypeError(f'k must be an int, not {type(k).__name__}')
    dev = resolve(device)
    with dev._scope():
        return make(dev.xp.eye(n, m, int(k), dtype=_dtypes.to_dtype(dtype)), dev)


def identity(n: int, dtype: Any = None, device: Any = None) -> ndarray:
    """The *n* x *n* identity matrix (default dtype float32)."""
    return eye(_check_count('n', n), None, 0, dtype, device)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None,
        device: Any = None) -> ndarray:
    """Ones at and below diagonal *k*, zeros above (default dtype float32)."""
    dev = resolve(device)
    with dev._scope():
        return make(dev.xp.tri(N, M, k, dtype=_dtypes.to_dtype(dtype)), dev)


def copy_(a: ndarray) -> ndarray:
    """A C-contiguous copy of *a*, connected to its graphs (gradient: identity)."""
    with a._device._scope():
        out = make(a._device.xp.array(a._data, order='C', copy=True), a._device)
    if a._nodes:
        _graph.record((a,), (out,), lambda gys, need: [gys[0]])
    return out


copy = copy_


def to_device(a: ndarray, device: Device) -> ndarray:
    """*a* on *device* (the array itself if it is there already); differentiable."""
    if a._device is device:
        return a
    src = a._device
    data = a._data
    if device.xp is numpy:
        data = numpy.array(data) if src.xp is numpy else data.get()
    else:
        with device._scope():
            data = device.xp.array(data)
    out = make(data, device)
    if a._nodes:
        _graph.record((a,), (out,), lambda gys, need: [to_device(gys[0], src)])
    return out


def to_numpy(array: ndarray, copy: bool = True) -> numpy.ndarray:
    """The data of *array* as a NumPy array (shared with a native array unless *copy*)."""
    if not isinstance(array, ndarray):
        raise TypeError(f'not a chainerx.ndarray: {type(array).__name__}')
    data = array._data
    if isinstance(data, numpy.ndarray):
        return data.copy() if copy else data
    return data.get()


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0,
               device: Any = None) -> ndarray:
    """A 1-d array over the bytes of *buffer* (native: shared; cuda: copied)."""
    dt = _dtypes.to_dtype(dtype)
    host = numpy.frombuffer(buffer, dtype=dt, count=count, offset=offset)
    dev = resolve(device)
    return make(_host_to(host, dev), dev)


def fromfile(file: Any, dtype: Any = float, count: int = -1, sep: str = '', offset: int = 0,
             device: Any = None) -> ndarray:
    """An array read from a binary or text file (see :func:`numpy.fromfile`)."""
    dt = _dtypes.to_dtype(dtype)
    host = numpy.fromfile(file, dtype=dt, count=count, sep=sep, offset=offset)
    dev = resolve(device)
    return make(_host_to(host, dev), dev)


def fromstring(string: str, dtype: Any = float, count: int = -1, sep: str = '',
               device: Any = None) -> ndarray:
    """A 1-d array parsed from text (*sep* separated)."""
    dt = _dtypes.to_dtype(dtype)
    host = numpy.fromstring(string, dtype=dt, count=count, sep=sep)
    dev = resolve(device)
    return make(_host_to(host, dev), dev)


def fromiter(iterable: Any, dtype: Any, count: int = -1, device: Any = None) -> ndarray:
    """A 1-d array from an iterable."""
    host = numpy.fromiter(iterable, dtype=_dtypes.to_dtype(dtype), count=count)
    dev = resolve(device)
    return make(_host_to(host, dev), dev)


def fromfunction(function: Any, shape: Any, *, dtype: Any = float, device: Any = None,
                 **kwargs: Any) -> ndarray:
    """An array whose element at each index is ``function(*index)``."""
    host = numpy.fromfunction(function, normalize_shape(shape), dtype=_dtypes.to_dtype(dtype),
                              **kwargs)
    dev = resolve(device)
    return make(_host_to(numpy.asarray(host), dev), dev)


def loadtxt(fname: Any, dtype: Any = float, device: Any = None, **kwargs: Any) -> ndarray:
    """An array read from a text file (see :func:`numpy.loadtxt`)."""
    host = numpy.loadtxt(fname, dtype=_dtypes.to_dtype(dtype), **kwargs)
    dev = resolve(device)
    return make(_host_to(host, dev), dev)


def meshgrid(*xi: ndarray, **kwargs: Any) -> list[ndarray]:
    """Coordinate matrices from coordinate vectors (``indexing='xy'`` or ``'ij'``), each a
    contiguous copy; differentiable."""
    from chainerx import _manipulation

    indexing = kwargs.pop('indexing', 'xy')
    if kwargs:
        raise TypeError(f'meshgrid got unexpected keyword arguments {sorted(kwargs)}')
    if indexing not in ('xy', 'ij'):
        raise ValueError("indexing must be 'xy' or 'ij'")
    if not xi:
        return []
    flat = [_manipulation.ravel(x) for x in xi]
    shape = [x.size for x in flat]
    order = list(range(len(flat)))
    if indexing == 'xy' and len(flat) > 1:
        shape[0], shape[1] = shape[1], shape[0]
        order[0], order[1] = 1, 0
    grids = []
    for i, x in enumerate(flat):
        along = [1] * len(flat)
        along[order[i]] = x.size
        grid = _manipulation.broadcast_to(_manipulation.reshape(x, tuple(along)), tuple(shape))
        grids.append(copy_(grid))
    return grids


def _triangle(m: ndarray, k: int, lower: bool) -> ndarray:
    from chainerx import _math

    rows, cols = (m.shape[-2:] if m.ndim >= 2 else (m.shape[-1], m.shape[-1]))
    with m._device._scope():
        mask = m._device.xp.tri(rows, cols, k if lower else k - 1, dtype=bool)
    if not lower:
        mask = ~mask
    return _math.where(make(mask, m._device), m, m.dtype.type(0))


def tril(m: ndarray, k: int = 0) -> ndarray:
    """*m* with the elements above diagonal *k* set to zero (over the last two axes; a
    1-d *m* is broadcast to a square matrix)."""
    return _triangle(m, int(k), True)


def triu(m: ndarray, k: int = 0) -> ndarray:
    """*m* with the elements below diagonal *k* set to zero (see :func:`tril`)."""
    return _triangle(m, int(k), False)
