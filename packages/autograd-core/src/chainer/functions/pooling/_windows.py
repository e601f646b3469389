"""Pooling windows: argument checks and the array kernels of the pooling functions.

:class:`Windows` describes the windows of one pooling call over images of shape
``(n, c, s_1, ..., s_d)`` (NumPy or CuPy arrays) and implements the four operations
the pooling functions are made of, each the adjoint of another:

- :meth:`Windows.max` (with the argmax of each window) and its adjoint pair
  :meth:`Windows.scatter` / :meth:`Windows.gather` (max pooling, upsampling);
- :meth:`Windows.sum` and its adjoint :meth:`Windows.spread` (average pooling,
  unpooling).

Windows are read as strided views of the (padded) image given by
:func:`chainer.utils.conv.im2col_nd`, one vectorized operation per kernel offset on
an output-sized array (no Python loop over pixels). When the windows tile the image
exactly (stride equal to the kernel, no padding, sizes divisible), the image is read
and written through a reshape to ``(n, c, o_1, k_1, ..., o_d, k_d)`` instead.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Any

import numpy

from chainer import backend
from chainer.utils import conv

Shape = tuple[int, ...]

# Above this many kernel offsets, tiling windows are reduced in one pass over a copy
# with the kernel axes last rather than with one operation per offset.
_LOOP_MAX = 16


def as_tuple(value: Any, ndim: int, name: str, minimum: int = 0) -> Shape:
    """``value`` (an int, or a sequence of ``ndim`` ints) as a tuple of ``ndim`` ints.

    Raises:
        TypeError: when ``value`` is not an int or a sequence of ints.
        ValueError: for a sequence of the wrong length or a value below ``minimum``.
    """
    try:
        if isinstance(value, (bool, numpy.bool_)):
            raise TypeError
        if isinstance(value, (int, numpy.integer)):
            t: Shape = (int(value),) * ndim
        else:
            t = tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f'{name} must be an int or a sequence of {ndim} ints, '
                        f'not {value!r}') from None
    if len(t) != ndim:
        raise ValueError(f'{name} must be an int or a sequence of {ndim} ints (one per '
                         f'spatial axis), not {value!r}')
    if any(v < minimum for v in t):
        raise ValueError(f'{name} must be at least {minimum}, not {value!r}')
    return t


def geometry(ndim: int, ksize: Any, stride: Any, pad: Any) -> tuple[Shape, Shape, Shape]:
    """``(ksize, stride, pad)`` as ``ndim``-tuples (``stride=None`` means ``ksize``).

    Raises:
        TypeError, ValueError: naming the bad argument (sizes and strides must be
            positive, paddings non-negative).
    """
    k = as_tuple(ksize, ndim, 'ksize', 1)
    s = k if stride is None else as_tuple(stride, ndim, 'stride', 1)
    return k, s, as_tuple(pad, ndim, 'pad', 0)


def check_spatial_ndim(x: Any, ndim: int) -> None:
    """ValueError unless ``x`` has ``ndim`` spatial axes after ``(n, c)`` (for the
    1-d / 2-d / 3-d wrappers)."""
    actual = len(x.shape) - 2
    if actual != ndim:
        raise ValueError(f"the input 'x' must have {ndim} spatial dimension(s) after the "
                         f'batch and channel axes, not shape {tuple(x.shape)}')


def index_dtype(volume: int) -> Any:
    """The smallest signed integer dtype that holds kernel offsets ``< volume``."""
    for dtype in (numpy.int8, numpy.int16, numpy.int32):
        if volume <= numpy.iinfo(dtype).max + 1:
            return numpy.dtype(dtype)
    return numpy.dtype(numpy.int64)


class Windows:
    """The windows of one pooling call.

    Args:
        ksize, stride, pad: ``d``-tuples (see :func:`geometry`).
        size: the spatial size of the image ``(s_1, ..., s_d)``.
        out: the number of windows per axis (from ``cover_all`` when None).
        cover_all: add windows so that every element is covered (when ``out`` is None).
        label: the function's name, for error messages.

    Raises:
        ValueError: when no window fits the padded image.
    """

    __slots__ = ('ksize', 'stride', 'pad', 'size', 'out', 'tiles', 'volume')

    def __init__(self, ksize: Shape, stride: Shape, pad: Shape, size: Shape,
                 out: Shape | None = None, cover_all: bool = False,
                 label: str = 'pooling') -> None:
        if out is None:
            out = tuple(conv.get_conv_outsize(n, k, s, p, cover_all)
                        for n, k, s, p in zip(size, ksize, stride, pad))
        if any(o <= 0 for o in out):
            raise ValueError(
                f'{label}: the window ksize={ksize} does not fit the input of spatial size '
                f'{size} padded by pad={pad} (the output size would be {out})')
        self.ksize, self.stride, self.pad = ksize, stride, pad
        self.size, self.out = tuple(size), tuple(out)
        self.volume = math.prod(ksize)
        self.tiles = all(s == k and p == 0 and o * k == n for k, s, p, n, o in
                         zip(ksize, stride, pad, self.size, self.out))

    # -- layout helpers ----------------------------------------------------------
    def _offsets(self) -> list[Shape]:
        return list(itertools.product(*[range(k) for k in self.ksize]))

    def _views(self, x: Any, pval: Any) -> list[Any]:
        """For each kernel offset, the ``(n, c) + out`` strided view of the windows."""
        col = conv.im2col_nd(x, self.ksize, self.stride, self.pad, pval, out_size=self.out)
        lead = (slice(None), slice(None))
        return [col[lead + off] for off in self._offsets()]

    def _interleaved(self, nc: Shape) -> Shape:
        """``nc + (o_1, k_1, ..., o_d, k_d)``: a tiled image seen window by window."""
        return nc + tuple(v for ok in zip(self.out, self.ksize) for v in ok)

    def _kernel_last(self, x: Any) -> Any:
        """A tiled image as a ``(n, c) + out + (volume,)`` copy."""
        nd = len(self.ksize)
        v = x.reshape(self._interleaved(x.shape[:2]))
        order = (0, 1) + tuple(range(2, 2 + 2 * nd, 2)) + tuple(range(3, 3 + 2 * nd, 2))
        return v.transpose(order).reshape(x.shape[:2] + self.out + (self.volume,))

    def _from_kernel_last(self, a: Any) -> Any:
        """The inverse of :meth:`_kernel_last`: ``(n, c) + out + (volume,)`` to an image."""
        nd = len(self.ksize)
        nc = a.shape[:2]
        a = a.reshape(nc + self.out + self.ksize)
        order = (0, 1) + tuple(v for i in range(nd) for v in (2 + i, 2 + nd + i))
        return a.transpose(order).reshape(nc + self.size)

    def _buffer(self, xp: Any, nc: Shape, dtype: Any) -> tuple[Any, list[Any], Any]:
        """A zero image padded for the windows, its per-offset window slices, and the
        crop that gives the unpadded image."""
        padded = tuple(max(n + p, (o - 1) * s + k) for n, k, s, p, o in
                       zip(self.size, self.ksize, self.stride, self.pad, self.out))
        buf = xp.zeros(nc + padded, dtype)
        lead = (slice(None), slice(None))
        targets = [lead + tuple(slice(i, i + s * (o - 1) + 1, s)
                                for i, s, o in zip(off, self.stride, self.out))
                   for off in self._offsets()]
        crop = lead + tuple(slice(p, p + n) for p, n in zip(self.pad, self.size))
        return buf, targets, crop

    def _tile_slices(self) -> list[Any]:
        """For each kernel offset, its slice of the interleaved view of a tiled image."""
        lead = (slice(None), slice(None))
        return [lead + tuple(v for i in off for v in (slice(None), i))
                for off in self._offsets()]

    # -- max and its adjoints ----------------------------------------------------
    def max(self, x: Any) -> tuple[Any, Any]:
        """The maximum of each window and its offset in the window.

        Args:
            x: image ``(n, c) + size`` (padding reads as ``-inf``).

        Returns:
            ``(y, indexes)``, both ``(n, c) + out``; ``indexes`` holds the row-major
            offset in the window of its first maximum, as :func:`index_dtype` ints.
        """
        xp = backend.get_array_module(x)
        dtype = index_dtype(self.volume)
        if self.tiles and self.volume > _LOOP_MAX:
            col = self._kernel_last(x)
            idx = col.argmax(axis=-1).astype(dtype, copy=False)
            return xp.take_along_axis(col, idx[..., None], -1)[..., 0], idx
        views = self._views(x, x.dtype.type(-numpy.inf))
        if len(views) == 1:
            return views[0].copy(), xp.zeros(views[0].shape, dtype)
        y = xp.maximum(views[0], views[1])
        for v in views[2:]:
            xp.maximum(y, v, out=y)
        idx = xp.full(y.shape, len(views) - 1, dtype)
        for t in range(len(views) - 2, -1, -1):
            xp.copyto(idx, t, where=views[t] == y)
        return y, idx

    def scatter(self, g: Any, indexes: Any) -> Any:
        """Put each ``g`` at its window's offset ``indexes`` (adding where windows
        overlap): the adjoint of :meth:`gather`.

        Args:
            g: array ``(n, c) + out``.
            indexes: ints of the same shape, offsets in ``[0, volume)``.

        Returns:
            An image ``(n, c) + size`` of ``g``'s dtype.
        """
        xp = backend.get_array_module(g)
        nc = g.shape[:2]
        zero = g.dtype.type(0)
        if self.tiles:
            if self.volume > _LOOP_MAX:
                hot = indexes[..., None] == xp.arange(self.volume, dtype=indexes.dtype)
                return self._from_kernel_last(xp.where(hot, g[..., None], zero))
            buf = xp.empty(self._interleaved(nc), g.dtype)
            for t, target in enumerate(self._tile_slices()):
                buf[target] = xp.where(indexes == t, g, zero)
            return buf.reshape(nc + self.size)
        buf, targets, crop = self._buffer(xp, nc, g.dtype)
        for t, target in enumerate(targets):
            buf[target] += xp.where(indexes == t, g, zero)
        return buf[crop]

    def gather(self, a: Any, indexes: Any) -> Any:
        """The element of each window of ``a`` at offset ``indexes`` (padding reads 0).

        Args:
            a: image ``(n, c) + size``.
            indexes: ints of shape ``(n, c) + out``.

        Returns:
            An array ``(n, c) + out`` of ``a``'s dtype.
        """
        xp = backend.get_array_module(a)
        if self.tiles and self.volume > _LOOP_MAX:
            col = self._kernel_last(a)
            return xp.take_along_axis(col, indexes[..., None].astype(numpy.intp), -1)[..., 0]
        views = self._views(a, 0)
        y = xp.zeros(indexes.shape, a.dtype)
        for t, v in enumerate(views):
            xp.copyto(y, v, where=indexes == t)
        return y

    # -- sum and its adjoint -----------------------------------------------------
    def sum(self, x: Any) -> Any:
        """The sum of each window (padding reads 0).

        Returns:
            An array ``(n, c) + out`` of ``x``'s dtype promoted to at least float32
            (the accumulator; cast it back after scaling).
        """
        acc = numpy.promote_types(x.dtype, numpy.float32)
        if self.tiles:
            nd = len(self.ksize)
            v = x.reshape(self._interleaved(x.shape[:2]))
            return v.sum(axis=tuple(range(3, 3 + 2 * nd, 2)), dtype=acc)
        views = self._views(x, 0)
        y = views[0].astype(acc)
        for v in views[1:]:
            y += v
        return y

    def spread(self, g: Any) -> Any:
        """Add each ``g`` to every element of its window: the adjoint of :meth:`sum`.

        Returns:
            An image ``(n, c) + size`` of ``g``'s dtype.
        """
        xp = backend.get_array_module(g)
        nc = g.shape[:2]
        if self.tiles:
            shape = self._interleaved(nc)
            one = nc + tuple(v for o in self.out for v in (o, 1))
            return xp.broadcast_to(g.reshape(one), shape).reshape(nc + self.size)
        buf, targets, crop = self._buffer(xp, nc, g.dtype)
        for target in targets:
            buf[target] += g
        return buf[crop]

    def counts(self, xp: Any, dtype: Any) -> Any:
        """The number of image (not padding) elements in each window, shaped ``out``."""
        total = None
        for axis, (n, k, s, p, o) in enumerate(
                zip(self.size, self.ksize, self.stride, self.pad, self.out)):
            start = numpy.arange(o) * s - p
            c = numpy.minimum(start + k, n) - numpy.maximum(start, 0)
            c = c.reshape((-1,) + (1,) * (len(self.out) - axis - 1))
            total = c if total is None else total * c
        return xp.asarray(total, dtype)
