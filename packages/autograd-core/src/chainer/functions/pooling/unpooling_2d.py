"""2-dimensional unpooling."""

from __future__ import annotations

from typing import Any

from chainer.functions.pooling import _windows
from chainer.functions.pooling.pooling_2d import Pooling2D
from chainer.functions.pooling.unpooling_nd import UnpoolingND
from chainer.variable import Variable


class Unpooling2D(Pooling2D, UnpoolingND):
    """:class:`UnpoolingND` of images ``(n, c, h, w)``, with the attributes of
    :class:`Pooling2D` and ``outh``, ``outw`` (None when not given)."""

    def __init__(self, ksize: Any, stride: Any = None, pad: Any = 0, outsize: Any = None,
                 cover_all: bool = True) -> None:
        Pooling2D.__init__(self, ksize, stride, pad, cover_all)
        self.outsize = None if outsize is None else _windows.as_tuple(
            outsize, 2, 'outsize', 0)

    outh = property(lambda self: None if self.outsize is None else self.outsize[0],
                    doc='The output height given, or None.')
    outw = property(lambda self: None if self.outsize is None else self.outsize[1],
                    doc='The output width given, or None.')


def unpooling_2d(x: Any, ksize: Any, stride: Any = None, pad: Any = 0, outsize: Any = None,
                 cover_all: bool = True) -> Variable:
    """Inverse of 2-dimensional pooling: spread each pixel over its window.

    Each output pixel is the sum of the inputs whose windows hold it (with
    ``stride == ksize``, every input pixel is repeated over a ``kh x kw`` block).

    Args:
        x: variable of shape ``(n, c, h, w)``, floating point.
        ksize: window size (int or pair).
        stride: window stride (int, pair, or None for ``ksize``).
        pad: padding on each side of the output (int or pair).
        outsize: the output size ``(out_h, out_w)``; None for
            :func:`~chainer.utils.conv.get_deconv_outsize` of ``(h, w)``. Pooling an
            image of this size must give ``(h, w)``.
        cover_all: whether that pooling covers every pixel (a smaller default output
            when True).

    Returns:
        The output variable ``(n, c, out_h, out_w)``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not a 4-dimensional
            floating-point array, or ``outsize`` does not pool to ``(h, w)``.
        TypeError, ValueError: for bad window arguments or ``outsize``.
    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
