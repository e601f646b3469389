"""Array kernels of the N-d convolution family (NumPy and CuPy alike).

Three linear maps cover every convolution, transposed convolution and their
gradients, with ``groups`` and ``dilate``:

- :func:`forward`: ``y = conv(x, W)``, the convolution;
- :func:`backward_data`: ``gx = conv^T(gy, W)``, its adjoint in ``x`` (which
  is also the forward of the transposed convolution, "deconvolution");
- :func:`backward_filter`: ``gW``, its adjoint in ``W``.

Each is one batched matrix product (over the batch and the groups) with the
patches of :func:`chainer.utils.conv.im2col_nd`, copied once into a
C-contiguous ``(n, groups, c_g * k, out)`` array (the layout whose products
land directly in NC... order), and for :func:`backward_data` one strided
addition per kernel offset (:func:`chainer.utils.conv.col2im_nd`). Weights
have Chainer's convolution layout ``(out_c, in_c / groups, k_1, ..., k_d)``.
Products are computed in float32 at least (float16 GEMMs are slow on CPU and
lose precision); the caller casts the result.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.utils import conv

Ints = tuple[int, ...]


def compute_dtype(*dtypes: Any) -> numpy.dtype:
    """The dtype the products are computed in: the promoted one, float32 at least."""
    dt = numpy.result_type(*dtypes)
    return numpy.dtype(numpy.float32) if dt.itemsize < 4 else dt


def _prod(values: Ints) -> int:
    p = 1
    for v in values:
        p *= v
    return p


def _is_pointwise(ksize: Ints, stride: Ints, pad: Ints, in_size: Ints,
                  out_size: Ints) -> bool:
    # a 1x..x1 kernel with unit stride and no padding: the patches are the image
    return (all(k == 1 for k in ksize) and all(s == 1 for s in stride)
            and not any(pad) and tuple(in_size) == tuple(out_size))


def patches(x: Any, ksize: Ints, stride: Ints, pad: Ints, dilate: Ints, groups: int,
            out_size: Ints, dtype: Any) -> Any:
    """The patches of ``x`` as a C-contiguous ``(n, groups, c_g * k, out)`` array."""
    n, c = x.shape[:2]
    k = _prod(ksize)
    p = _prod(out_size)
    xp = backend.get_array_module(x)
    if _is_pointwise(ksize, stride, pad, x.shape[2:], out_size):
        col = x
    else:
        col = conv.im2col_nd(x, ksize, stride, pad, dilate=dilate, out_size=out_size)
    return xp.ascontiguousarray(col, dtype=dtype).reshape(n, groups, c // groups * k, p)


def forward(x: Any, W: Any, stride: Ints, pad: Ints, dilate: Ints, groups: int,
            out_size: Ints, dtype: Any) -> Any:
    """The convolution of ``x`` (n, c, s...) with ``W`` (o, c / groups, k...).

    Returns:
        An array of shape ``(n, o) + out_size`` in the compute dtype.
    """
    xp = backend.get_array_module(x, W)
    ct = compute_dtype(x.dtype, W.dtype, dtype)
    n = x.shape[0]
    o = W.shape[0]
    col = patches(x, W.shape[2:], stride, pad, dilate, groups, out_size, ct)
    Wg = W.reshape(groups, o // groups, -1).astype(ct, copy=False)
    if groups == 1:
        y = xp.matmul(Wg[0], col[:, 0])
    else:
        y = xp.matmul(Wg, col)
    return y.reshape((n, o) + tuple(out_size))


def backward_data(gy: Any, W: Any, stride: Ints, pad: Ints, dilate: Ints, groups: int,
                  in_size: Ints, dtype: Any) -> Any:
    """The adjoint of :func:`forward` in ``x``: ``(n, o, out...)`` to ``(n, c) + in_size``.

    Returns:
        An array in the compute dtype (possibly a view of a padded buffer).
    """
    xp = backend.get_array_module(gy, W)
    ct = compute_dtype(gy.dtype, W.dtype, dtype)
    n, o = gy.shape[:2]
    out_size = gy.shape[2:]
    ksize = W.shape[2:]
    c = W.shape[1] * groups
    gy4 = gy.reshape(n, groups, o // groups, -1).astype(ct, copy=False)
    Wg = W.reshape(groups, o // groups, -1).astype(ct, copy=False)
    if groups == 1:
        gcol = xp.matmul(Wg[0].T, gy4[:, 0])
    else:
        gcol = xp.matmul(Wg.transpose(0, 2, 1), gy4)
    if _is_pointwise(ksize, stride, pad, in_size, out_size):
        return gcol.reshape((n, c) + tuple(in_size))
    gcol = gcol.reshape((n, c) + tuple(ksize) + tuple(out_size))
    return conv.col2im_nd(gcol, stride, pad, in_size, dilate)


def backward_filter(x: Any, gy: Any, ksize: Ints, stride: Ints, pad: Ints, dilate: Ints,
                    groups: int, dtype: Any) -> Any:
    """The adjoint of :func:`forward` in ``W``: an array ``(o, c / groups) + ksize``."""
    xp = backend.get_array_module(x, gy)
    ct = compute_dtype(x.dtype, gy.dtype, dtype)
    n, o = gy.shape[:2]
    c = x.shape[1]
    col = patches(x, ksize, stride, pad, dilate, groups, gy.shape[2:], ct)
    gy4 = gy.reshape(n, groups, o // groups, -1).astype(ct, copy=False)
    gW = xp.matmul(gy4, col.transpose(0, 1, 3, 2)).sum(axis=0)
    return gW.reshape((o, c // groups) + tuple(ksize))


def add_bias(y: Any, b: Any) -> Any:
    """``y += b`` over the channel axis (axis 1), in place; returns ``y``."""
    y += b.reshape((1, -1) + (1,) * (y.ndim - 2)).astype(y.dtype, copy=False)
    return y


def bias_grad(gy: Any, dtype: Any) -> Any:
    """The gradient of a channel bias: ``gy`` summed over all axes but axis 1."""
    return gy.sum(axis=(0,) + tuple(range(2, gy.ndim))).astype(dtype, copy=False)
