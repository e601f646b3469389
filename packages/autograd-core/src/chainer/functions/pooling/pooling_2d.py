"""The base of the 2-dimensional pooling functions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions.pooling.pooling_nd import PoolingND

if TYPE_CHECKING:
    from chainer.types import ShapeSpec


class Pooling2D(PoolingND):
    """Base of the pooling functions over images ``(n, c, h, w)``.

    Args:
        ksize: window size (int or pair).
        stride: window stride (int, pair, or None for ``ksize``).
        pad: padding on each side (int or pair).
        cover_all: add windows so that every input pixel is pooled.

    Attributes:
        kh, kw, sy, sx, ph, pw: the window height and width, the strides and the
            paddings (as in Chainer v7; also available as ``ksize``, ``stride``, ``pad``).
    """

    def __init__(self, ksize: ShapeSpec, stride: ShapeSpec | None = None, pad: ShapeSpec = 0,
                 cover_all: bool = True) -> None:
        PoolingND.__init__(self, 2, ksize, stride, pad, cover_all)

    kh = property(lambda self: self.ksize[0], doc='Window height.')
    kw = property(lambda self: self.ksize[1], doc='Window width.')
    sy = property(lambda self: self.stride[0], doc='Vertical stride.')
    sx = property(lambda self: self.stride[1], doc='Horizontal stride.')
    ph = property(lambda self: self.pad[0], doc='Vertical padding.')
    pw = property(lambda self: self.pad[1], doc='Horizontal padding.')
