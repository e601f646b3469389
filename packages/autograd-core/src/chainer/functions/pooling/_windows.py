"""Pooling windows: argument checks and the array kernels of the pooling functions.

:class:`Windows` describes the windows of one pooling call over images of shape
``(n, c, s_1, ..., s_d)`` (NumPy or CuPy arrays) and implements the operations the
pooling functions are made of:

- :meth:`Windows.max`, which also locates each maximum, and the pair
  :meth:`Windows.scatter` / :meth:`Windows.gather` that writes to / reads from those
  locations (max pooling, its gradients, upsampling);
- :meth:`Windows.sum` and its adjoint :meth:`Windows.spread` (average pooling,
  unpooling).

Max and sum are separable: they reduce one spatial axis at a time, the first first
(so that the later, cheaper stages are the ones that also track locations), over
strided views of the windows along that axis (slices, or
:func:`chainer.utils.conv.im2col_nd` where the axis needs padding): ``k - 1``
vectorized operations per axis, never a Python loop over pixels. A location is kept
as a flat offset in the padded image relative to its window's origin, so that the
gradient is one scatter-add and its gradient one gather.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy

from chainer import _jit, backend
from chainer.functions.array._util import index_add
from chainer.functions.pooling import _windows_kernels
from chainer.utils import conv, numeric_args

Shape = tuple[int, ...]

def as_tuple(value: Any, ndim: int, name: str, minimum: int = 0) -> Shape:
    """``value`` (an int, or a sequence of ``ndim`` ints) as a tuple of ``ndim`` ints.

    Raises:
        TypeError: when ``value`` is not an int or a sequence of ints.
        ValueError: for a sequence of the wrong length or a value below ``minimum``.
    """
    try:
        if isinstance(value, (bool, numpy.bool_)):
            raise TypeError
        if numeric_args.is_int(value):
            t: Shape = (numeric_args.as_int(value),) * ndim
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


class Windows:
    """The windows of one pooling call.

    Args:
        ksize, stride, pad: ``d``-tuples (see :func:`geometry`).
        size: the spatial size of the image ``(s_1, ..., s_d)``.
        out: the number of windows per axis (from ``cover_all`` when None).
        cover_all: add windows so that every element is covered (when ``out`` is None).
        label: the function's name, for error messages.

    Attributes:
        padded: the size of the padded image that holds every window.
        volume: the number of elements of a window.

    Raises:
        ValueError: when no window fits the padded image.
    """

    __slots__ = ('ksize', 'stride', 'pad', 'size', 'out', 'padded', 'volume')

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
        self.padded = tuple(max(n + p, (o - 1) * s + k) for n, k, s, p, o in
                            zip(self.size, ksize, stride, pad, self.out))
        self.volume = math.prod(ksize)

    # -- layout helpers ----------------------------------------------------------
    def _pstrides(self) -> Shape:
        """The strides (in elements) of the spatial axes of the padded image."""
        return tuple(math.prod(self.padded[d + 1:]) for d in range(len(self.padded)))

    def _axis_views(self, a: Any, d: int, pval: Any) -> list[Any]:
        """The windows of ``a`` along spatial axis ``d`` (padded with ``pval``): one
        strided view per offset, shaped like ``a`` with axis ``d`` of length ``out[d]``.

        Windows inside the axis are plain slices; when the axis needs padding,
        :func:`chainer.utils.conv.im2col_nd` pads it and gives the windows.
        """
        k, s, p, o = self.ksize[d], self.stride[d], self.pad[d], self.out[d]
        if a.size == 0:  # nothing to read (an empty batch or axis)
            xp = backend.get_array_module(a)
            return [xp.full(a.shape[:2 + d] + (o,) + a.shape[3 + d:], pval, a.dtype)] * k
        if p == 0 and (o - 1) * s + k <= a.shape[2 + d]:
            lead: tuple[Any, ...] = (slice(None),) * (2 + d)
            return [a[lead + (slice(t, t + s * (o - 1) + 1, s),)] for t in range(k)]
        nd = len(self.ksize)
        one = (1,) * nd
        out = a.shape[2:2 + d] + (o,) + a.shape[3 + d:]
        col = conv.im2col_nd(a, one[:d] + (k,) + one[d + 1:], one[:d] + (s,) + one[d + 1:],
                             (0,) * d + (p,) + (0,) * (nd - d - 1), pval, out_size=out)
        lead = (slice(None), slice(None), *(0,) * d)
        return [col[lead + (t,) + (0,) * (nd - d - 1)] for t in range(k)]

    def _axis_slices(self, d: int) -> list[Any]:
        """For each offset along axis ``d``, its windows' slice of the padded axis."""
        s, o = self.stride[d], self.out[d]
        lead = (slice(None),) * (2 + d)
        return [lead + (slice(t, t + s * (o - 1) + 1, s),) for t in range(self.ksize[d])]

    def _positions(self, xp: Any, nc: Shape, rel: Any) -> Any:
        """Flat indexes into the padded images ``(n, c) + padded`` of the locations
        ``rel`` (offsets from each window's origin)."""
        spatial = 0
        for d, (o, s, ps) in enumerate(zip(self.out, self.stride, self._pstrides())):
            shape = (-1,) + (1,) * (len(self.out) - d - 1)
            spatial = spatial + (xp.arange(o, dtype=numpy.int64) * (s * ps)).reshape(shape)
        images = xp.arange(math.prod(nc), dtype=numpy.int64) * math.prod(self.padded)
        return (rel + spatial) + images.reshape(nc + (1,) * len(self.out))

    def _padded_image(self, a: Any, pval: Any) -> Any:
        """``a`` padded to ``(n, c) + padded`` with ``pval`` (``a`` itself if it fits)."""
        if self.padded == self.size:
            return a
        xp = backend.get_array_module(a)
        buf = xp.full(a.shape[:2] + self.padded, pval, a.dtype)
        buf[(slice(None),) * 2 + tuple(slice(p, p + n) for p, n in
                                        zip(self.pad, self.size))] = a
        return buf

    def _crop(self, buf: Any) -> Any:
        if self.padded == self.size:
            return buf
        return buf[(slice(None),) * 2 + tuple(slice(p, p + n) for p, n in
                                              zip(self.pad, self.size))]

    def _compiled(self, a: Any) -> bool:
        """Whether the compiled 2-d kernel (``_windows_kernels``) takes ``a``."""
        return (len(self.ksize) == 2 and type(a) is numpy.ndarray
                and a.dtype in _jit.FLOAT_DTYPES and _jit.enabled())

    def _compiled_2x2(self, x: Any) -> bool:
        """Whether the compiled 2x2 maximum (``_windows_kernels.max_2x2``) takes ``x``:
        2x2 windows of stride 2 inside the image, a C-contiguous non-empty ``x``."""
        return (self.ksize == (2, 2) and self.stride == (2, 2) and self.padded == self.size
                and self._compiled(x) and x.flags.c_contiguous and x.size > 0)

    # -- max and the locations of the maxima -------------------------------------
    def max(self, x: Any) -> tuple[Any, Any]:
        """The maximum of each window (padding reads ``-inf``) and where it is.

        Returns:
            ``(y, rel)``, both ``(n, c) + out``: ``rel`` holds the flat offset in the
            padded image of the first maximum (in row-major window order) from its
            window's origin (int32, or int64 for huge images).
        """
        xp = backend.get_array_module(x)
        itype = numpy.int32 if math.prod(self.padded) < 2 ** 31 else numpy.int64
        if self._compiled_2x2(x):
            y = numpy.empty(x.shape[:2] + self.out, x.dtype)
            loc = numpy.empty(y.shape, itype)
            _windows_kernels.max_2x2(x, self.padded[1], y, loc)
            return y, loc
        pval = x.dtype.type(-numpy.inf)
        a, rel = x, None
        # The last axis first: each later (outer) axis then keeps the first of equal
        # maxima, so ties go to the first maximum in row-major window order, as in v7.
        for d, ps in reversed(list(enumerate(self._pstrides()))):
            views = self._axis_views(a, d, pval)
            rviews = None if rel is None else self._axis_views(rel, d, 0)
            a, rel = views[0], None if rviews is None else rviews[0]
            for t in range(1, len(views)):
                better = views[t] > a
                a = xp.maximum(a, views[t]) if t == 1 else xp.maximum(a, views[t], out=a)
                if rviews is None:
                    cand = xp.multiply(better, t * ps, dtype=itype)
                    rel = cand if rel is None else rel + better * (t * ps - rel)
                else:
                    rel = rel + better * (rviews[t] + t * ps - rel)
        if rel is None or rel.base is not None:
            rel = xp.zeros(a.shape, itype) if rel is None else rel.copy()
        if a.base is not None:
            a = a.copy()
        return a, rel

    def max_values(self, x: Any) -> Any:
        """The maximum of each window (padding reads ``-inf``), without locating it.

        Returns:
            A C-contiguous array ``(n, c) + out`` (the values of :meth:`max`).
        """
        if self._compiled_2x2(x):  # the maxima and their locations, still faster
            return self.max(x)[0]
        xp = backend.get_array_module(x)
        # the first axis first: its windows are whole rows, the fastest to compare
        a = self._fold(x, range(len(self.ksize)), x.dtype.type(-numpy.inf), xp.maximum)
        # a new C-contiguous array, never a view of x (1x1 windows select x itself)
        return a if a.base is None and a is not x and a.flags.c_contiguous else a.copy()

    def scatter(self, g: Any, rel: Any) -> Any:
        """Add each ``g`` at its location ``rel`` in a zero image (the gradient of
        :meth:`max`; the adjoint of :meth:`gather`).

        Returns:
            An image ``(n, c) + size`` of ``g``'s dtype.
        """
        xp = backend.get_array_module(g)
        nc = g.shape[:2]
        buf = xp.zeros(math.prod(nc) * math.prod(self.padded), g.dtype)
        if self._compiled(g) and type(rel) is numpy.ndarray and g.size:
            sy, sx = self.stride
            _windows_kernels.scatter_2d(g, rel, sy, sx, self.padded[1],
                                        buf.reshape(nc + (-1,)))
        else:
            index_add(buf, self._positions(xp, nc, rel).ravel(), g.ravel())
        return self._crop(buf.reshape(nc + self.padded))

    def gather(self, a: Any, rel: Any) -> Any:
        """The element of each window of ``a`` at its location ``rel`` (padding
        reads 0).

        Returns:
            An array ``(n, c) + out`` of ``a``'s dtype.
        """
        xp = backend.get_array_module(a)
        flat = self._padded_image(a, 0).reshape(-1)
        return flat.take(self._positions(xp, a.shape[:2], rel))

    def window_index(self, rel: Any) -> Any:
        """The row-major offsets in their windows (int64) of the locations ``rel``."""
        idx: Any = 0
        for k, n, ps in zip(self.ksize, self.padded, self._pstrides()):
            idx = idx * k + (rel // ps) % n
        return idx.astype(numpy.int64, copy=False)

    def relative(self, indexes: Any) -> Any:
        """The locations (see :meth:`max`) of row-major offsets in the windows."""
        xp = backend.get_array_module(indexes)
        indexes = indexes.astype(numpy.int64, copy=False)
        rel = xp.zeros(indexes.shape, numpy.int64)
        step = self.volume
        for k, ps in zip(self.ksize, self._pstrides()):
            step //= k
            rel += (indexes // step) % k * ps
        return rel

    # -- sum and its adjoint -----------------------------------------------------
    def sum(self, x: Any) -> Any:
        """The sum of each window (padding reads 0).

        Returns:
            An array ``(n, c) + out`` of ``x``'s dtype promoted to at least float32
            (the accumulator; cast it back after scaling).
        """
        acc = numpy.promote_types(x.dtype, numpy.float32)
        xp = backend.get_array_module(x)
        a = self._fold(x, reversed(range(len(self.ksize))), 0, xp.add, acc)
        return a.astype(acc) if a.base is not None or a.dtype != acc else a

    def _fold(self, x: Any, axes: Any, pval: Any, ufunc: Any, dtype: Any = None) -> Any:
        """``x`` reduced over each window by the binary ``ufunc``, one spatial axis
        at a time in the order ``axes`` (padding reads ``pval``; the first pair of
        offsets is combined into a new array of ``dtype``, the rest in place)."""
        a = x
        for d in axes:
            views = self._axis_views(a, d, pval)
            if len(views) == 1:
                a = views[0]
                continue
            a = ufunc(views[0], views[1], dtype=dtype)
            for v in views[2:]:
                ufunc(a, v, out=a)
        return a

    def spread(self, g: Any) -> Any:
        """Add each ``g`` to every element of its window: the adjoint of :meth:`sum`.

        Returns:
            An image ``(n, c) + size`` of ``g``'s dtype.
        """
        xp = backend.get_array_module(g)
        for d in reversed(range(len(self.ksize))):
            # spread along axis d into the padded length; crop once at the end, so
            # that the next axis reads a contiguous array
            k, s, o, length = self.ksize[d], self.stride[d], self.out[d], self.padded[d]
            shape = g.shape[:2 + d] + (length,) + g.shape[3 + d:]
            exact = s == k and length == o * k  # each element in exactly one window
            buf = xp.empty(shape, g.dtype) if exact else xp.zeros(shape, g.dtype)
            for target in self._axis_slices(d):
                if exact:
                    buf[target] = g
                else:
                    buf[target] += g
            g = buf
        return self._crop(g)

    def counts(self, xp: Any, dtype: Any) -> Any:
        """The number of image (not padding) elements in each window, shaped ``out``
        (0 for a window of padding alone)."""
        total = None
        for axis, (n, k, s, p, o) in enumerate(
                zip(self.size, self.ksize, self.stride, self.pad, self.out)):
            start = numpy.arange(o) * s - p
            c = numpy.maximum(numpy.minimum(start + k, n) - numpy.maximum(start, 0), 0)
            c = c.reshape((-1,) + (1,) * (len(self.out) - axis - 1))
            total = c if total is None else total * c
        return xp.asarray(total, dtype)
