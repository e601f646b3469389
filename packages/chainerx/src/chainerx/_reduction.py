"""Reductions: sum, mean, var, max, min, arg-max/min, all/any, cumsum, logsumexp,
softmax and log_softmax."""

from __future__ import annotations

from typing import Any

import numpy

from chainerx import _dtypes, _graph, _manipulation, _math
from chainerx._array import make, ndarray
from chainerx._errors import DimensionError


def normalize_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    """*axis* (None, an int or ints; negatives count from the end) as sorted ints;
    DimensionError when one is out of range or repeated."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int | numpy.integer) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise DimensionError(f'axis {a} is out of bounds for {ndim} dimensions')
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise DimensionError(f'duplicate axes: {axis}')
    return tuple(sorted(out))


def _kept_shape(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _expand(gy: ndarray, x: ndarray, axes: tuple[int, ...], keepdims: bool) -> ndarray:
    """*gy* of a reduction over *axes* broadcast back to *x*'s shape."""
    if not keepdims:
        gy = _manipulation.reshape(gy, _kept_shape(x.shape, axes))
    return _manipulation.broadcast_to(gy, x.shape)


def sum(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The sum over *axis* (integers and bools sum as int64)."""
    axes = normalize_axes(axis, a.ndim)
    dtype = a.dtype if a.dtype.kind == 'f' else numpy.dtype('int64')
    with a._device._scope():
        data = a._device.xp.sum(a._data, axis=axes, keepdims=keepdims, dtype=dtype)
    out = _math._wrap(data, a._device)
    if a._nodes:
        _graph.record((a,), (out,), lambda gys, need: [_expand(gys[0], a, axes, keepdims)])
    return out


def _as_float(x: ndarray) -> ndarray:
    dt = _dtypes.float_result(x.dtype)
    return x if x.dtype == dt else _math.astype(x, dt, False)


def mean(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The mean over *axis*."""
    axes = normalize_axes(axis, a.ndim)
    n = 1
    for i in axes:
        n *= a.shape[i]
    s = sum(a, axes, keepdims)
    dt = _dtypes.float_result(a.dtype)
    return _math.divide(_math.astype(s, dt, False), dt.type(n) if n else dt.type('nan'))


def var(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The (biased) variance over *axis*."""
    axes = normalize_axes(axis, a.ndim)
    a = _as_float(a)
    d = _math.subtract(a, mean(a, axes, keepdims=True))
    return mean(_math.square(d), axes, keepdims)


def _extreme(name: str, a: ndarray, axis: Any, keepdims: bool) -> ndarray:
    axes = normalize_axes(axis, a.ndim)
    for i in axes:
        if a.shape[i] == 0:
            raise DimensionError(f'{name} of an empty axis')
    if a.size == 0 and not axes:
        raise DimensionError(f'{name} of an empty array')
    with a._device._scope():
        data = getattr(a._device.xp, name)(a._data, axis=axes, keepdims=keepdims)
    out = _math._wrap(data, a._device)
    if a._nodes:
        y_data = out._data

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            y = make(y_data, a._device)
            mask = _math.equal(a.as_grad_stopped(), _expand(y, a, axes, keepdims))
            g = _expand(gys[0], a, axes, keepdims)
            return [_math.where(mask, g, g.dtype.type(0))]

        _graph.record((a,), (out,), backward)
    return out


def amax(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The maximum over *axis* (the gradient goes to every maximal element)."""
    return _extreme('amax', a, axis, keepdims)


def amin(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The minimum over *axis* (the gradient goes to every minimal element)."""
    return _extreme('amin', a, axis, keepdims)


max = amax
min = amin


def _arg(name: str, a: ndarray, axis: int | None) -> ndarray:
    if axis is not None:
        axis = normalize_axes(axis, a.ndim)[0]
    if (a.size == 0 if axis is None else a.shape[axis] == 0):
        raise DimensionError(f'{name} of an empty sequence')
    with a._device._scope():
        data = getattr(a._device.xp, name)(a._data, axis=axis)
    return _math._wrap(data.astype(numpy.int64, copy=False), a._device)


def argmax(a: ndarray, axis: int | None = None) -> ndarray:
    """Indices of the maxima along *axis* (of the flattened array if None)."""
    return _arg('argmax', a, axis)


def argmin(a: ndarray, axis: int | None = None) -> ndarray:
    """Indices of the minima along *axis* (of the flattened array if None)."""
    return _arg('argmin', a, axis)


def _nan_arg(name: str, a: ndarray, axis: int | None) -> ndarray:
    if axis is not None:
        axis = normalize_axes(axis, a.ndim)[0]
    if (a.size == 0 if axis is None else a.shape[axis] == 0):
        raise DimensionError(f'{name} of an empty sequence')
    xp = a._device.xp
    with a._device._scope():
        if a.dtype.kind == 'f' and bool(xp.isnan(a._data).all(axis=axis).any()):
            raise DimensionError(f'{name}: a slice holds only NaN')
        data = getattr(xp, name)(a._data, axis=axis)
    return _math._wrap(data.astype(numpy.int64, copy=False), a._device)


def nanargmax(a: ndarray, axis: int | None = None) -> ndarray:
    """Indices of the maxima along *axis*, ignoring NaN (DimensionError for a slice of
    NaN only)."""
    return _nan_arg('nanargmax', a, axis)


def nanargmin(a: ndarray, axis: int | None = None) -> ndarray:
    """Indices of the minima along *axis*, ignoring NaN (DimensionError for a slice of
    NaN only)."""
    return _nan_arg('nanargmin', a, axis)


def count_nonzero(a: ndarray, axis: Any = None) -> ndarray:
    """The number of non-zero elements along *axis* (all if None), as int64."""
    axes = normalize_axes(axis, a.ndim)
    with a._device._scope():
        data = a._device.xp.count_nonzero(a._data, axis=axes)
    return _math._wrap(a._device.xp.asarray(data, numpy.int64), a._device)


def nansum(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """The sum over *axis* with NaN counted as zero (their gradient is zero)."""
    if a.dtype.kind != 'f':
        return sum(a, axis, keepdims)
    return sum(_math.where(_math.isnan(a.as_grad_stopped()), a.dtype.type(0), a), axis,
               keepdims)


def all(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """Whether every element along *axis* is true."""
    axes = normalize_axes(axis, a.ndim)
    return _math._wrap(a._device.xp.all(a._data, axis=axes, keepdims=keepdims), a._device)


def any(a: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """Whether some element along *axis* is true."""
    axes = normalize_axes(axis, a.ndim)
    return _math._wrap(a._device.xp.any(a._data, axis=axes, keepdims=keepdims), a._device)


def cumsum(a: ndarray, axis: int | None = None) -> ndarray:
    """Cumulative sum along *axis* (over the flattened array if None)."""
    if axis is None:
        a = _manipulation.reshape(a, (a.size,))
        axis = 0
    ax = normalize_axes(axis, a.ndim)[0]
    dtype = a.dtype if a.dtype.kind == 'f' else numpy.dtype('int64')
    with a._device._scope():
        data = a._device.xp.cumsum(a._data, axis=ax, dtype=dtype)
    out = _math._wrap(data, a._device)
    if a._nodes:

        def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
            flipped = _manipulation.flip(gys[0], ax)
            return [_manipulation.flip(cumsum(flipped, ax), ax)]

        _graph.record((a,), (out,), backward)
    return out


def logsumexp(x: ndarray, axis: Any = None, keepdims: bool = False) -> ndarray:
    """``log(sum(exp(x)))`` over *axis*, computed stably."""
    axes = normalize_axes(axis, x.ndim)
    x = _as_float(x)
    m = amax(x.as_grad_stopped(), axes, keepdims=True)
    m = _math.where(_math.isfinite(m), m, m.dtype.type(0))
    s = sum(_math.exp(_math.subtract(x, m)), axes, keepdims=True)
    out = _math.add(_math.log(s), m)
    if not keepdims:
        out = _manipulation.reshape(out, tuple(
            n for i, n in enumerate(out.shape) if i not in axes))
    return out


def log_softmax(x: ndarray, axis: Any = None) -> ndarray:
    """``x - logsumexp(x)`` along *axis* (default: axis 1)."""
    axes = normalize_axes(1 if axis is None else axis, x.ndim)
    x = _as_float(x)
    return _math.subtract(x, logsumexp(x, axes, keepdims=True))


def softmax(x: ndarray, axis: Any = None) -> ndarray:
    """``exp(x) / sum(exp(x))`` along *axis* (default: axis 1)."""
    return _math.exp(log_softmax(x, axis))


