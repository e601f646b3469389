"""Deformable convolution (``deformable_convolution_2d_sampler``).

The filter taps are moved by learned per-position offsets: the image is
sampled bilinearly at the shifted taps (with
:func:`~chainer.functions.spatial_transformer_sampler`), then the samples are
multiplied by the filters in one matrix product. Every step is a
differentiable function, so gradients flow to ``x``, ``offset``, ``W`` and
``b`` (also of higher order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.array.get_item import get_item
from chainer.functions.array.pad import pad as pad_function
from chainer.functions.array.reshape import reshape
from chainer.functions.array.spatial_transformer_sampler import spatial_transformer_sampler
from chainer.functions.array.stack import stack
from chainer.functions.math.bias import bias
from chainer.functions.math.matmul import matmul
from chainer.utils import conv
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import ShapeSpec, VariableOrArray


def _pair(value: Any, name: str) -> tuple[int, int]:
    return conv.as_tuple(value, 2, name)  # type: ignore[return-value]


@guarded
def deformable_convolution_2d_sampler(x: VariableOrArray, offset: VariableOrArray,
                                      W: VariableOrArray, b: VariableOrArray | None = None,
                                      stride: ShapeSpec = 1, pad: ShapeSpec = 0) -> Variable:
    """Two-dimensional deformable convolution function using computed offsets.

    The tap ``(i, j)`` of the filter at output position ``(p, q)`` reads the
    (zero-padded) input at ``(p s_y + i + offset[:, K + k, p, q],
    q s_x + j + offset[:, k, p, q])`` with ``k = i k_W + j`` and
    ``K = k_H k_W``, interpolated bilinearly (zero outside the padded image).

    Args:
        x: input of shape ``(n, c_I, h, w)``.
        offset: offsets of shape ``(n, 2 k_H k_W, h_O, w_O)``: the first
            ``k_H k_W`` channels move the taps along the width, the others
            along the height. Its spatial size is the output size, normally
            that of the convolution (``get_conv_outsize``).
        W: filters of shape ``(c_O, c_I, k_H, k_W)``.
        b: bias of shape ``(c_O,)`` or None.
        stride: int or pair ``(s_y, s_x)``.
        pad: zero padding, int or pair ``(p_h, p_w)``.

    Returns:
        Output of shape ``(n, c_O, h_O, w_O)``; with zero offsets, the same as
        :func:`~chainer.functions.convolution_2d`.

    Raises:
        ValueError: when ``offset`` does not have ``2 k_H k_W`` channels.
    """
    sy, sx = _pair(stride, 'stride')
    ph, pw = _pair(pad, 'pad')
    out_c, _, kh, kw = W.shape
    n, c, h, w = x.shape
    _, khkw2, out_h, out_w = offset.shape
    if khkw2 != 2 * kh * kw:
        raise ValueError(f'offset must have 2 * kh * kw = {2 * kh * kw} channels, '
                         f'not {khkw2} (offset shape {offset.shape})')
    xp = backend.get_array_module(x, offset, W)
    dtype = offset.dtype
    k = kh * kw
    p = out_h * out_w
    hp, wp = h + 2 * ph, w + 2 * pw
    # the tap positions in the padded image, before the offsets: (K, P)
    ky, kx = xp.meshgrid(xp.arange(kh), xp.arange(kw), indexing='ij')
    oy, ox = xp.meshgrid(xp.arange(out_h) * sy, xp.arange(out_w) * sx, indexing='ij')
    base_y = (ky.reshape(k, 1) + oy.reshape(1, p)).astype(dtype)
    base_x = (kx.reshape(k, 1) + ox.reshape(1, p)).astype(dtype)
    offset = reshape(as_variable(offset), (n, 2, k, p))
    # normalized to [-1, 1] over the centers of the padded image's pixels
    gx = (get_item(offset, (slice(None), 0)) + base_x) * (2.0 / max(wp - 1, 1)) - 1
    gy = (get_item(offset, (slice(None), 1)) + base_y) * (2.0 / max(hp - 1, 1)) - 1
    grid = stack((gx, gy), axis=1)
    x_pad = pad_function(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), 'constant')
    col = spatial_transformer_sampler(x_pad, grid)  # (n, c, K, P)
    y = matmul(reshape(W, (out_c, c * k)), reshape(col, (n, c * k, p)))
    y = reshape(y, (n, out_c, out_h, out_w))
    if b is not None:
        y = bias(y, b, axis=1)
    return y
