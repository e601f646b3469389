"""Convolution geometry and im2col / col2im on strided views (NumPy and CuPy).

:func:`im2col_nd` returns the patches of an image as a strided *view* of the
(padded) image, of shape ``(n, c, k_1, ..., k_d, out_1, ..., out_d)``: no
patch is copied until the view is consumed (e.g. by one matrix product with
the filters, or a reduction over the kernel axes for pooling).
:func:`col2im_nd` is its adjoint: it sums the patches back into an image, one
vectorized addition per kernel offset.

The 2-D functions keep the names and arguments of Chainer's ``chainer.utils.conv``
(``im2col_cpu`` / ``im2col_gpu`` / ``col2im_cpu`` / ``col2im_gpu``); the CPU
and GPU variants are the same code, written for both array modules.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy

from chainer import backend
from chainer.utils import numeric_args
from chainer.utils.error import ArgumentValueError

if TYPE_CHECKING:
    from chainer.types import NdArray, ShapeSpec


class ConvolutionArgumentError(ArgumentValueError):
    """A convolution argument of the wrong length, or sizes that do not fit.

    An :class:`~chainer.utils.error.ArgumentValueError`: a :class:`ValueError`
    and also an :class:`AssertionError`, which Chainer v7 raised for these
    cases (its helpers asserted), so that code written for v7 still catches it.
    """


def get_conv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False,
                     d: int = 1) -> int:
    """The output length of a convolution along one axis.

    Args:
        size: input length.
        k: kernel length.
        s: stride.
        p: padding (on each side).
        cover_all: add windows so that every input element is covered.
        d: dilation.

    Returns:
        The number of windows (may be zero or negative when the kernel does not fit).
    """
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size: int, k: int, s: int, p: int, cover_all: bool = False,
                       d: int = 1) -> int:
    """The output length of a transposed convolution along one axis.

    The inverse of :func:`get_conv_outsize` (same arguments): the smallest
    image length whose convolution has ``size`` windows.
    """
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def as_tuple(value: ShapeSpec, n: int, name: str = 'argument') -> tuple[int, ...]:
    """``value`` as an ``n``-tuple of ints (an int is repeated ``n`` times).

    Raises:
        ConvolutionArgumentError: when a sequence does not have ``n`` items.
    """
    if type(value) is int:
        return (value,) * n
    if numeric_args.is_int(value):  # a NumPy integer or a 0-d integer array
        return (numeric_args.as_int(value),) * n
    items = tuple(int(v) for v in cast('Sequence[int]', value))
    if len(items) != n:
        raise ConvolutionArgumentError(
            f'{name} must be an int or a sequence of {n} ints, not {items}')
    return items


_tuple = as_tuple


def _as_strided(xp: Any, a: Any, shape: tuple[int, ...], strides: tuple[int, ...]) -> Any:
    if xp is numpy:
        return numpy.lib.stride_tricks.as_strided(a, shape, strides, writeable=False)
    return xp.lib.stride_tricks.as_strided(a, shape, strides)


def pad_spatial(img: NdArray, widths: Sequence[tuple[int, int]], pval: float = 0) -> Any:
    """``img`` with its spatial axes (all but the first two) padded by ``pval``.

    Args:
        img: array of shape ``(n, c, s_1, ..., s_d)``.
        widths: ``d`` pairs ``(before, after)`` of non-negative ints.
        pval: the value of the new elements.

    Returns:
        ``img`` itself when every width is zero, else a new C-contiguous array
        (one allocation and one copy: cheaper than ``numpy.pad``).
    """
    if not any(a or b for a, b in widths):
        return img
    xp = backend.get_array_module(img)
    shape = img.shape[:2] + tuple(s + a + b for s, (a, b) in zip(img.shape[2:], widths))
    if pval == 0:
        out = xp.zeros(shape, img.dtype)
    else:
        out = xp.full(shape, pval, img.dtype)
    out[(slice(None), slice(None)) + tuple(
        slice(a, a + s) for s, (a, _) in zip(img.shape[2:], widths))] = img
    return out


def _geometry(sizes: tuple[int, ...], ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec,
              cover_all: bool, dilate: ShapeSpec,
              out_size: ShapeSpec | None) -> tuple[tuple[int, ...], ...]:
    nd = len(sizes)
    ksize = as_tuple(ksize, nd, 'ksize')
    stride = as_tuple(stride, nd, 'stride')
    pad = as_tuple(pad, nd, 'pad')
    dilate = as_tuple(dilate, nd, 'dilate')
    if out_size is None:
        out_size = tuple(get_conv_outsize(n, k, s, p, cover_all, d)
                         for n, k, s, p, d in zip(sizes, ksize, stride, pad, dilate))
    else:
        out_size = as_tuple(out_size, nd, 'out_size')
    if any(o <= 0 for o in out_size):
        raise ConvolutionArgumentError(
            f'the output size {out_size} is not positive: the kernel {ksize} (dilation '
            f'{dilate}) does not fit the input {sizes} padded by {pad}')
    return ksize, stride, pad, dilate, out_size


def im2col_nd(img: NdArray, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec, pval: float = 0,
              cover_all: bool = False, dilate: ShapeSpec = 1,
              out_size: ShapeSpec | None = None) -> Any:
    """The patches of an N-d image as a strided view.

    Args:
        img: array of shape ``(n, c, s_1, ..., s_d)``.
        ksize, stride, pad, dilate: ints or d-tuples.
        pval: the value of the padded elements.
        cover_all: see :func:`get_conv_outsize`.
        out_size: the output lengths (computed when None).

    Returns:
        A read-only view of shape ``(n, c, k_1, ..., k_d, o_1, ..., o_d)`` with
        ``view[:, :, i_1.., o_1..] = padded[:, :, o_1 * s_1 + i_1 * d_1, ...]``
        (of ``img`` itself when no padding is needed, else of a padded copy).

    Raises:
        ConvolutionArgumentError: for an argument of the wrong length, or when
            an output length would not be positive.
    """
    sizes = img.shape[2:]
    ksize, stride, pad, dilate, out_size = _geometry(
        sizes, ksize, stride, pad, cover_all, dilate, out_size)
    widths = []
    for n, k, s, p, d, o in zip(sizes, ksize, stride, pad, dilate, out_size):
        needed = (o - 1) * s + (k - 1) * d + 1
        widths.append((p, max(0, needed - n - p)))
    img = pad_spatial(img, widths, pval)
    st = img.strides
    shape = img.shape[:2] + ksize + out_size
    strides = st[:2] + tuple(t * d for t, d in zip(st[2:], dilate)) + tuple(
        t * s for t, s in zip(st[2:], stride))
    return _as_strided(backend.get_array_module(img), img, shape, strides)


def col2im_nd(col: NdArray, stride: ShapeSpec, pad: ShapeSpec, size: ShapeSpec,
              dilate: ShapeSpec = 1) -> Any:
    """Sum patches back into an image (the adjoint of :func:`im2col_nd`).

    Args:
        col: array of shape ``(n, c, k_1, ..., k_d, o_1, ..., o_d)``.
        stride, pad, dilate: ints or d-tuples.
        size: the image lengths ``(s_1, ..., s_d)``.

    Returns:
        An array of shape ``(n, c, s_1, ..., s_d)`` (``k_1 * ... * k_d``
        strided additions; a view of a padded buffer when ``pad`` is not zero).

    Raises:
        ConvolutionArgumentError: for an argument of the wrong length.
    """
    if col.ndim % 2:
        raise ConvolutionArgumentError(
            f'col must have 2 + 2 * d axes (n, c, kernel..., output...), not shape {col.shape}')
    xp = backend.get_array_module(col)
    if col.ndim < 2 or col.ndim % 2:
        raise ArgumentValueError(f'col must have the shape (n, c, k_1, ..., k_d, o_1, ..., '
                                 f'o_d), not {col.shape}')
    nd = (col.ndim - 2) // 2
    stride = as_tuple(stride, nd, 'stride')
    pad = as_tuple(pad, nd, 'pad')
    dilate = as_tuple(dilate, nd, 'dilate')
    size = as_tuple(size, nd, 'size')
    ksize = col.shape[2:2 + nd]
    out_size = col.shape[2 + nd:]
    padded = []
    for n, k, s, p, d, o in zip(size, ksize, stride, pad, dilate, out_size):
        needed = (o - 1) * s + (k - 1) * d + 1
        padded.append(max(n + p, needed))
    lead = (slice(None), slice(None))
    buf = xp.zeros(col.shape[:2] + tuple(padded), col.dtype)
    for offsets in itertools.product(*[range(k) for k in ksize]):
        target = lead + tuple(slice(i * d, i * d + s * (o - 1) + 1, s) for i, d, s, o in
                              zip(offsets, dilate, stride, out_size))
        buf[target] += col[lead + offsets]
    if not any(pad) and tuple(padded) == size:
        return buf
    crop = lead + tuple(slice(p, p + n) for p, n in zip(pad, size))
    return buf[crop]


def im2col_cpu(img: NdArray, kh: int, kw: int, sy: int, sx: int, ph: int, pw: int, pval: float = 0,
               cover_all: bool = False, dy: int = 1, dx: int = 1, out_h: int | None = None,
               out_w: int | None = None) -> Any:
    """2-D :func:`im2col_nd`: a view of shape ``(n, c, kh, kw, out_h, out_w)``.

    Args:
        img: image of shape ``(n, c, h, w)`` (NumPy or CuPy).
        kh, kw: kernel size.
        sy, sx: stride.
        ph, pw: padding.
        pval: the value of the padded elements.
        cover_all: see :func:`get_conv_outsize`.
        dy, dx: dilation.
        out_h, out_w: the output size (computed when None).
    """
    out_size = None if out_h is None or out_w is None else (out_h, out_w)
    return im2col_nd(img, (kh, kw), (sy, sx), (ph, pw), pval, cover_all, (dy, dx), out_size)


def im2col_gpu(img: NdArray, kh: int, kw: int, sy: int, sx: int, ph: int, pw: int,
               cover_all: bool = False, dy: int = 1, dx: int = 1, out_h: int | None = None,
               out_w: int | None = None, *, pval: float = 0) -> Any:
    """:func:`im2col_cpu` with v7's GPU argument order (``pval`` keyword-only)."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx, out_h, out_w)


def im2col(img: NdArray, kh: int, kw: int, sy: int, sx: int, ph: int, pw: int,
           cover_all: bool = False, dy: int = 1, dx: int = 1, out_h: int | None = None,
           out_w: int | None = None, *, pval: float = 0) -> Any:
    """:func:`im2col_cpu` for NumPy or CuPy images, with v7's argument order."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx, out_h, out_w)


def col2im(col: NdArray, sy: int, sx: int, ph: int, pw: int, h: int, w: int, dy: int = 1,
           dx: int = 1) -> Any:
    """2-D :func:`col2im_nd`: ``(n, c, kh, kw, out_h, out_w)`` to ``(n, c, h, w)``."""
    return col2im_nd(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


col2im_cpu = col2im
col2im_gpu = col2im
