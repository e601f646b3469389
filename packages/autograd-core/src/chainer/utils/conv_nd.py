"""N-dimensional im2col/col2im (the helpers behind convolution and pooling).

These are the functions of :mod:`chainer.utils.conv` under the names and
argument orders of v7's ``chainer.utils.conv_nd``; the CPU and GPU versions
run the same code on NumPy or CuPy arrays. A parameter of the wrong rank
raises :class:`chainer.utils.conv.ConvolutionArgumentError` (a ValueError,
and an AssertionError as in v7, whose helpers asserted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.utils import conv as _conv
from chainer.utils.conv import as_tuple, col2im_nd, get_conv_outsize, get_deconv_outsize

if TYPE_CHECKING:
    from chainer.types import NdArray, ShapeSpec

col2im_nd_cpu = col2im_nd_gpu = col2im_nd


def im2col_nd_cpu(img: NdArray, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec,
                  pval: float = 0, cover_all: bool = False, dilate: ShapeSpec = 1) -> Any:
    """N-d patches of ``img`` as a read-only view ``(n, c, k_1.., out_1..)``.

    See :func:`chainer.utils.conv.im2col_nd`.
    """
    return _conv.im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate)


def im2col_nd_gpu(img: NdArray, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec,
                  cover_all: bool = False, dilate: ShapeSpec = 1, *, pval: float = 0) -> Any:
    """:func:`im2col_nd_cpu` with v7's GPU argument order (``pval`` keyword-only)."""
    return _conv.im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate)


def im2col_nd(img: NdArray, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec,
              cover_all: bool = False, dilate: ShapeSpec = 1, *, pval: float = 0) -> Any:
    """:func:`im2col_nd_cpu` for NumPy or CuPy images, with v7's argument order."""
    return _conv.im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate)


__all__ = ['as_tuple', 'col2im_nd', 'col2im_nd_cpu', 'col2im_nd_gpu', 'get_conv_outsize',
           'get_deconv_outsize', 'im2col_nd', 'im2col_nd_cpu', 'im2col_nd_gpu']
