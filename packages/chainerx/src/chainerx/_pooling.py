"""N-dimensional pooling: ``max_pool`` and ``average_pool``.

Max pooling gathers each window's maximum with integer indexing (so its gradients of
any order come from indexing's); average pooling is a window sum, whose backward
spreads the gradient over the windows, that spreading's backward being the window sum.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainerx import _graph, _indexing, _manipulation, _math, _spatial
from chainerx._array import make, ndarray
from chainerx._errors import DimensionError

Ints = tuple[int, ...]


def _geometry(x: ndarray, ksize: Any, stride: Any, pad: Any, cover_all: bool
              ) -> tuple[Ints, Ints, Ints, Ints]:
    """Kernel, stride, pad and output sizes of a pooling of *x* (N, C, *spatial)."""
    if not isinstance(x, ndarray):
        raise TypeError('x must be a chainerx.ndarray')
    nd = x.ndim - 2
    k = _spatial.as_tuple(ksize, nd, 'ksize') if nd >= 1 else ()
    if not k:
        raise DimensionError('pooling needs at least one spatial dimension')
    s = k if stride is None else _spatial.as_tuple(stride, nd, 'stride')
    p = _spatial.as_tuple(pad, nd, 'pad')
    return k, s, p, _spatial.out_sizes(x.shape[2:], k, s, p, cover_all)


def max_pool(x: ndarray, ksize: Any, stride: Any = None, pad: Any = 0,
             cover_all: bool = False) -> ndarray:
    """The maximum of each window of *x* (N, C, *spatial), *ksize* wide, every *stride*
    (default: *ksize*) over *x* padded by *pad* with -inf (*cover_all*: windows also
    cover the last partial stride). The gradient goes to each window's first maximum.

    Raises:
        DimensionError: no spatial axis, or sizes of the wrong length, or no window fits.
    """
    k, s, p, out = _geometry(x, ksize, stride, pad, cover_all)
    device = x._device
    xp = device.xp
    nd = len(k)
    spatial = x.shape[2:]
    low = -numpy.inf if x.dtype.kind == 'f' else numpy.iinfo(x.dtype).min
    with device._scope():
        xpad = _spatial.padded(xp, x._data, k, s, p, out, low)
        win = _spatial.windows(xp, xpad, k, s, out).reshape(x.shape[:2] + out + (-1,))
        best = xp.unravel_index(xp.argmax(win, axis=-1), k)  # offsets within the window
        valid = xp.ones(x.shape[:2] + out, bool)
        flat = xp.zeros(x.shape[:2] + out, numpy.int64)
        for axis in range(nd):
            shape = (1,) * (2 + axis) + (out[axis],) + (1,) * (nd - axis - 1)
            start = xp.arange(out[axis]).reshape(shape) * s[axis] - p[axis]
            pos = start + best[axis]
            valid &= (pos >= 0) & (pos < spatial[axis])
            flat = flat * spatial[axis] + xp.clip(pos, 0, spatial[axis] - 1)
        n = xp.arange(x.shape[0]).reshape((-1,) + (1,) * (nd + 1))
        c = xp.arange(x.shape[1]).reshape((1, -1) + (1,) * nd)
    rows = _manipulation.reshape(x, x.shape[:2] + (-1,))
    picked = _indexing.getitem(rows, (n, c, flat))
    return _math.where(make(valid, device), picked, low)


def _window_sum(x: ndarray, k: Ints, s: Ints, p: Ints, out: Ints) -> ndarray:
    """The sum of each window of *x* padded with zeros (float16 summed in float32)."""
    device = x._device
    xp = device.xp
    nd = len(k)
    ct = numpy.float32 if x.dtype == numpy.float16 else x.dtype
    with device._scope():
        xpad = _spatial.padded(xp, x._data.astype(ct, copy=False), k, s, p, out)
        win = _spatial.windows(xp, xpad, k, s, out)
        y = win.sum(axis=tuple(range(2 + nd, 2 + 2 * nd))).astype(x.dtype, copy=False)
    result = make(y, device)
    if x._nodes:
        spatial = x.shape[2:]
        _graph.record((x,), (result,),
                      lambda gys, need: [_window_spread(gys[0], k, s, p, spatial)])
    return result


def _window_spread(gy: ndarray, k: Ints, s: Ints, p: Ints, outsize: Ints) -> ndarray:
    """The image (N, C, *outsize) where each window gets its value of *gy* added: the
    backward of :func:`_window_sum`."""
    device = gy._device
    xp = device.xp
    nd = len(k)
    ct = numpy.float32 if gy.dtype == numpy.float16 else gy.dtype
    with device._scope():
        g = gy._data.astype(ct, copy=False)
        cols = xp.broadcast_to(g.reshape(g.shape[:2] + (1,) * nd + g.shape[2:]),
                               g.shape[:2] + k + g.shape[2:])
        y = xp.ascontiguousarray(_spatial.col2im(xp, cols, s, p, outsize, ct))
    result = make(y.astype(gy.dtype, copy=False), device)
    if gy._nodes:
        out = gy.shape[2:]
        _graph.record((gy,), (result,),
                      lambda gys, need: [_window_sum(gys[0], k, s, p, out)])
    return result


def average_pool(x: ndarray, ksize: Any, stride: Any = None, pad: Any = 0,
                 pad_mode: str = 'ignore') -> ndarray:
    """The mean of each window of *x* (N, C, *spatial), *ksize* wide, every *stride*
    (default: *ksize*), over *x* padded by *pad*: *pad_mode* ``'zero'`` counts the
    padding as zeros, ``'ignore'`` averages the elements of *x* only (a window of
    padding only gives NaN).

    Raises:
        DimensionError: no spatial axis, or sizes of the wrong length, or no window fits.
        ValueError: an unknown *pad_mode*.
    """
    if pad_mode not in ('zero', 'ignore'):
        raise ValueError(f"pad_mode must be 'zero' or 'ignore', not {pad_mode!r}")
    k, s, p, out = _geometry(x, ksize, stride, pad, False)
    total = _window_sum(x, k, s, p, out)
    if pad_mode == 'zero':
        size = 1
        for kk in k:
            size *= kk
        return _math.divide(total, x.dtype.type(size))
    xp = x._device.xp
    with x._device._scope():
        ones = make(xp.ones((1, 1) + x.shape[2:], x.dtype), x._device)
    counts = _window_sum(ones, k, s, p, out)
    with numpy.errstate(invalid='ignore', divide='ignore'):
        return _math.divide(total, counts)
