"""Array kernels of the N-d convolution family (NumPy and CuPy alike).

Three linear maps cover every convolution, transposed convolution and their
gradients, with ``groups`` and ``dilate``:

- :func:`forward`: ``y = conv(x, W)``, the convolution;
- :func:`backward_data`: ``gx = conv^T(gy, W)``, its adjoint in ``x`` (which
  is also the forward of the transposed convolution, "deconvolution");
- :func:`backward_filter`: ``gW``, its adjoint in ``W``.

Weights have Chainer's layout ``(out_c, in_c / groups, k_1, ..., k_d)``.
Each map is one matrix product per group (one batched product over the
groups) between the filters and the image patches laid out as a
C-contiguous ``(groups, c_g * k, n * out)`` matrix, copied once from the
strided view of :func:`chainer.utils.conv.im2col_nd`; the adjoint in ``x``
sums the patches back with one strided addition per kernel offset.

With unit strides the patches are taken from the flattened padded image
("wide" rows: each output row spans the whole padded width, and the extra
columns are cropped from the output or zeroed in the gradient). Every patch
row is then one contiguous slice, so the copies and the additions run over
long contiguous rows, at the price of ``padded width / output width`` more
arithmetic; it is used when that extra work is small next to the copies it
saves (whose share of the work shrinks as the output channels grow). A 1x..x1 kernel with unit
stride and no padding needs no patches at all: its product is batched over
the images instead.

Products are computed in float32 at least (float16 GEMMs are slow on CPU and
lose precision); the caller casts the result.

With Numba (``chainer._jit``), 2-d convolutions on NumPy arrays of float32/float64 copy
their outputs (adding the bias) and output gradients between the image and the product
layouts with the compiled kernels of :mod:`~chainer.functions.connection._conv_kernels`
(same numbers bit for bit).
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer import _cpu_blas, _cudnn, _jit, backend
from chainer.functions._util import channel_sum
from chainer.functions.connection import _conv_kernels
from chainer.utils import conv

Ints = tuple[int, ...]

# The wide layout trades extra products (padded / output row length - 1, times the
# output channels per group, relative to the copies it saves) for faster copies and
# additions; measured on CPU, it pays while that product stays below about this.
_WIDE_MAX_EXTRA = 40


def compute_dtype(*dtypes: Any) -> numpy.dtype:
    """The dtype the products are computed in: the promoted one, float32 at least."""
    dt = numpy.result_type(*dtypes)
    return numpy.dtype(numpy.float32) if dt.itemsize < 4 else dt


def _prod(values: Any) -> int:
    p = 1
    for v in values:
        p *= v
    return p


def _matmul(xp: Any, a: Any, b: Any) -> Any:
    # (a broadcast) matrix product; a contraction of length one (one output channel per
    # group in a depthwise gradient) is an outer product, far faster by broadcasting
    if a.shape[-1] == 1:
        return a * b
    return xp.matmul(a, b)


class _Geometry:
    """The shapes of one convolution and the layout of its patches."""

    __slots__ = ('n', 'c', 'o', 'groups', 'ksize', 'stride', 'pad', 'dilate', 'in_size',
                 'out_size', 'pointwise', 'wide', 'padded', 'row')

    def __init__(self, n: int, c: int, o: int, groups: int, ksize: Ints, stride: Ints,
                 pad: Ints, dilate: Ints, in_size: Ints, out_size: Ints) -> None:
        self.n, self.c, self.o, self.groups = n, c, o, groups
        self.ksize, self.stride, self.pad, self.dilate = ksize, stride, pad, dilate
        self.in_size, self.out_size = tuple(in_size), tuple(out_size)
        self.pointwise = (all(k == 1 for k in ksize) and all(s == 1 for s in stride)
                          and not any(pad) and self.in_size == self.out_size)
        # the padded lengths that the output windows need (at least the padded input)
        self.padded = tuple(
            max(s + 2 * p, (o_ - 1) * st + (k - 1) * d + 1)
            for s, p, o_, st, k, d in zip(self.in_size, pad, self.out_size, stride, ksize,
                                          dilate))
        extra = _prod(self.padded[1:]) / max(_prod(self.out_size[1:]), 1) - 1
        self.wide = (not self.pointwise and len(ksize) > 0
                     and all(s == 1 for s in stride)
                     and extra * (o // groups) <= _WIDE_MAX_EXTRA)
        # the length of one wide patch row: out_1 rows of the padded trailing axes
        self.row = self.out_size[0] * _prod(self.padded[1:]) if self.wide else 0

    @property
    def p(self) -> int:
        """Patch positions per image (wide rows included)."""
        return self.row if self.wide else _prod(self.out_size)


def _geometry(x_shape: Ints, W_shape: Ints, o: int, stride: Ints, pad: Ints, dilate: Ints,
              groups: int, in_size: Ints, out_size: Ints) -> _Geometry:
    return _Geometry(x_shape[0], W_shape[1] * groups, o, groups, tuple(W_shape[2:]),
                     tuple(stride), tuple(pad), tuple(dilate), in_size, out_size)


def _wide_source(x: Any, g: _Geometry) -> Any:
    # the zero-padded image with one spare row, so that the last wide row fits
    widths = [(p, q - s - p) for s, p, q in zip(g.in_size, g.pad, g.padded)]
    widths[0] = (widths[0][0], widths[0][1] + 1)
    return conv.pad_spatial(x, widths)


def _wide_view(img: Any, g: _Geometry) -> Any:
    # (n, c, k..., row) view: patch row of kernel offset k starts at its flat offset
    xp = backend.get_array_module(img)
    item = img.itemsize
    flat = []
    step = item
    for size in reversed(img.shape[2:]):
        flat.append(step)
        step *= size
    flat.reverse()
    st = img.strides
    shape = (g.n, g.c) + g.ksize + (g.row,)
    strides = st[:2] + tuple(f * d for f, d in zip(flat, g.dilate)) + (item,)
    return conv._as_strided(xp, img, shape, strides)


def patches(x: Any, g: _Geometry, dtype: Any) -> Any:
    """The patches of ``x`` as a C-contiguous ``(groups, c_g * k, n * p)`` matrix."""
    xp = backend.get_array_module(x)
    if g.wide:
        view = _wide_view(_wide_source(x, g), g)
    else:
        view = conv.im2col_nd(x, g.ksize, g.stride, g.pad, dilate=g.dilate,
                              out_size=g.out_size)
    nd = len(g.ksize)
    # (c, k..., n, out...): the contraction axes first, the batch with the positions
    axes = tuple(range(1, 2 + nd)) + (0,) + tuple(range(2 + nd, view.ndim))
    col = xp.ascontiguousarray(view.transpose(axes), dtype=dtype)
    return col.reshape(g.groups, g.c // g.groups * _prod(g.ksize), g.n * g.p)


def _compiled(a: Any, g: _Geometry) -> bool:
    """Whether the compiled layout kernels (``_conv_kernels``) take ``a`` of ``g``: a
    non-empty NumPy array of float32/float64 of a 2-d convolution, with Numba on."""
    return (type(a) is numpy.ndarray and len(g.ksize) == 2 and a.dtype in _jit.FLOAT_DTYPES
            and a.size > 0 and _jit.enabled())


def _row_length(g: _Geometry) -> int:
    # the length of one output row in the product's layout (2-d)
    return g.padded[1] if g.wide else g.out_size[1]


def _with_bias(y: Any, b: Any) -> Any:
    return y if b is None else add_bias(y, b)


def _to_output(yT: Any, g: _Geometry, o: int, b: Any = None) -> Any:
    # (groups, o_g, n * p) -> C-contiguous (n, o, out...), wide columns cropped, + b
    if _compiled(yT, g):
        y = numpy.empty((g.n, o) + g.out_size, yT.dtype)
        bias = y.reshape(-1) if b is None else b.astype(yT.dtype, copy=False)
        _conv_kernels.to_output(yT.reshape(o, g.n, g.out_size[0], _row_length(g)), bias,
                                b is not None, y)
        return y
    xp = backend.get_array_module(yT)
    if g.wide:
        y = yT.reshape((o, g.n, g.out_size[0]) + g.padded[1:])
        y = y[(slice(None),) * 3 + tuple(slice(0, s) for s in g.out_size[1:])]
    else:
        y = yT.reshape((o, g.n) + g.out_size)
    return _with_bias(xp.ascontiguousarray(y.swapaxes(0, 1)), b)


def _from_output(gy: Any, g: _Geometry, dtype: Any) -> Any:
    # (n, o, out...) -> C-contiguous (groups, o_g, n * p), wide columns zero
    xp = backend.get_array_module(gy)
    o = gy.shape[1]
    if gy.dtype == dtype and _compiled(gy, g):
        buf = numpy.empty((o, g.n, g.out_size[0], _row_length(g)), dtype)
        _conv_kernels.from_output(gy, buf)
    elif g.wide:
        buf = xp.zeros((o, g.n, g.out_size[0]) + g.padded[1:], dtype)
        buf[(slice(None),) * 3 + tuple(slice(0, s) for s in g.out_size[1:])] = (
            gy.swapaxes(0, 1))
    else:
        buf = xp.ascontiguousarray(gy.swapaxes(0, 1), dtype=dtype)
    return buf.reshape(g.groups, o // g.groups, g.n * g.p)


def _gradient_matrix(gy: Any, g: _Geometry, dtype: Any, shared: dict | None) -> Any:
    # _from_output, computed once for the two adjoints of one backward (``shared``)
    if shared is None:
        return _from_output(gy, g, dtype)
    key = numpy.dtype(dtype)  # the geometry is the same for both adjoints
    m = shared.get(key)
    if m is None:
        m = shared[key] = _from_output(gy, g, dtype)
    return m


def _col2im(gcol: Any, g: _Geometry) -> Any:
    # (groups, c_g * k, n * p) -> (n, c) + in_size: the patches summed into the image
    xp = backend.get_array_module(gcol)
    nd = len(g.ksize)
    col = gcol.reshape((g.c,) + g.ksize + (g.n, g.p))
    col = col.transpose((nd + 1, 0) + tuple(range(1, nd + 1)) + (nd + 2,))  # (n, c, k..., p)
    if not g.wide:
        return conv.col2im_nd(col.reshape(col.shape[:-1] + g.out_size), g.stride, g.pad,
                              g.in_size, g.dilate)
    rows = (g.padded[0] + 1,) + g.padded[1:]
    buf = xp.zeros((g.n, g.c, _prod(rows)), gcol.dtype)
    flat = [_prod(rows[i + 1:]) for i in range(nd)]
    for index in numpy.ndindex(*g.ksize):
        start = sum(k * d * f for k, d, f in zip(index, g.dilate, flat))
        buf[:, :, start:start + g.row] += col[(slice(None), slice(None)) + index]
    img = buf.reshape((g.n, g.c) + rows)
    return img[(slice(None), slice(None)) + tuple(
        slice(p, p + s) for p, s in zip(g.pad, g.in_size))]


def forward(x: Any, W: Any, stride: Ints, pad: Ints, dilate: Ints, groups: int,
            out_size: Ints, dtype: Any, b: Any = None) -> Any:
    """The convolution of ``x`` (n, c, s...) with ``W`` (o, c / groups, k...), plus the
    bias ``b`` (o,) over the channel axis when given (as :func:`add_bias`).

    Returns:
        A C-contiguous array of shape ``(n, o) + out_size`` in the compute dtype.
    """
    xp = backend.get_array_module(x, W)
    if xp is not numpy and _cudnn.enabled(x, W):
        y = _cudnn.run('fprop', x, W, (x.shape[0], W.shape[0]) + tuple(out_size), stride, pad,
                       dilate)
        if y is not None:
            return _with_bias(y, b)
    ct = compute_dtype(x.dtype, W.dtype, dtype)
    o = W.shape[0]
    g = _geometry(x.shape, W.shape, o, stride, pad, dilate, groups, x.shape[2:], out_size)
    Wg = W.reshape(groups, o // groups, -1).astype(ct, copy=False)
    if g.pointwise:
        x4 = x.reshape(g.n, groups, g.c // groups, g.p).astype(ct, copy=False)
        y = _matmul(xp, Wg[0], x4[:, 0]) if groups == 1 else _matmul(xp, Wg, x4)
        return _with_bias(y.reshape((g.n, o) + g.out_size), b)
    col = patches(x, g, ct)
    yT = _cpu_blas.dot(Wg[0], col[0]) if groups == 1 else _matmul(xp, Wg, col)
    return _to_output(yT, g, o, b)


def backward_data(gy: Any, W: Any, stride: Ints, pad: Ints, dilate: Ints, groups: int,
                  in_size: Ints, dtype: Any, shared: dict | None = None) -> Any:
    """The adjoint of :func:`forward` in ``x``: ``(n, o, out...)`` to ``(n, c) + in_size``.

    ``shared``: a dict passed to both this and :func:`backward_filter` for the same
    ``gy`` and geometry, so that ``gy``'s matrix layout is computed once.

    Returns:
        An array in the compute dtype (possibly a view of a padded buffer).
    """
    xp = backend.get_array_module(gy, W)
    if xp is not numpy and _cudnn.enabled(gy, W):
        gx = _cudnn.run('dgrad', gy, W, (gy.shape[0], W.shape[1] * groups) + tuple(in_size),
                        stride, pad, dilate)
        if gx is not None:
            return gx
    ct = compute_dtype(gy.dtype, W.dtype, dtype)
    o = gy.shape[1]
    g = _geometry(gy.shape, W.shape, o, stride, pad, dilate, groups, in_size, gy.shape[2:])
    Wg = W.reshape(groups, o // groups, -1).astype(ct, copy=False)
    if g.pointwise:
        gy4 = gy.reshape(g.n, groups, o // groups, g.p).astype(ct, copy=False)
        if groups == 1:
            gx = _matmul(xp, Wg[0].T, gy4[:, 0])
        else:
            gx = _matmul(xp, Wg.transpose(0, 2, 1), gy4)
        return gx.reshape((g.n, g.c) + g.in_size)
    gyT = _gradient_matrix(gy, g, ct, shared)
    if groups == 1:
        gcol = _cpu_blas.dot(Wg[0].T, gyT[0])[None]
    else:
        gcol = _matmul(xp, Wg.transpose(0, 2, 1), gyT)
    return _col2im(gcol, g)


def backward_filter(x: Any, gy: Any, ksize: Ints, stride: Ints, pad: Ints, dilate: Ints,
                    groups: int, dtype: Any, shared: dict | None = None) -> Any:
    """The adjoint of :func:`forward` in ``W``: an array ``(o, c / groups) + ksize``
    (``shared``: see :func:`backward_data`)."""
    xp = backend.get_array_module(x, gy)
    o = gy.shape[1]
    W_shape = (o, x.shape[1] // groups) + tuple(ksize)
    if xp is not numpy and _cudnn.enabled(x, gy):
        gW = _cudnn.run('wgrad', x, gy, W_shape, stride, pad, dilate)
        if gW is not None:
            return gW
    ct = compute_dtype(x.dtype, gy.dtype, dtype)
    g = _geometry(x.shape, W_shape, o, stride, pad, dilate, groups, x.shape[2:],
                  gy.shape[2:])
    if g.pointwise:
        x4 = x.reshape(g.n, groups, g.c // groups, g.p).astype(ct, copy=False)
        gy4 = gy.reshape(g.n, groups, o // groups, g.p).astype(ct, copy=False)
        gW = xp.matmul(gy4, x4.transpose(0, 1, 3, 2)).sum(axis=0)
        return gW.reshape(W_shape)
    col = patches(x, g, ct)
    gyT = _gradient_matrix(gy, g, ct, shared)
    if groups == 1:
        gW = _cpu_blas.dot(gyT[0], col[0].T)
    else:
        gW = xp.matmul(gyT, col.transpose(0, 2, 1))
    return gW.reshape(W_shape)


def add_bias(y: Any, b: Any) -> Any:
    """``y += b`` over the channel axis (axis 1), in place; returns ``y``."""
    y += b.reshape((1, -1) + (1,) * (y.ndim - 2)).astype(y.dtype, copy=False)
    return y


def bias_grad(gy: Any, dtype: Any) -> Any:
    """The gradient of a channel bias: ``gy`` summed over all axes but axis 1 (a
    matrix-vector product for float32/float64, several times faster than NumPy's sum
    over those axes)."""
    if gy.dtype.kind == 'f' and gy.dtype.itemsize >= 4:
        n, c = gy.shape[:2]
        g3 = gy.reshape(n, c, _prod(gy.shape[2:]))
        return channel_sum(g3, backend.get_array_module(gy)).astype(dtype, copy=False)
    return gy.sum(axis=(0,) + tuple(range(2, gy.ndim))).astype(dtype, copy=False)
