"""2-dimensional unpooling."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._composite import AdjointNode
from chainer.functions._guard import guarded
from chainer.functions.pooling import _windows
from chainer.functions.pooling.pooling_2d import Pooling2D
from chainer.functions.pooling.unpooling_nd import UnpoolingND
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import NdArray, ShapeSpec, VariableOrArray


class Unpooling2D(Pooling2D, UnpoolingND):
    """:class:`UnpoolingND` of images ``(n, c, h, w)``, with the attributes of
    :class:`Pooling2D` and ``outh``, ``outw`` (None when not given)."""

    def __init__(self, ksize: ShapeSpec, stride: ShapeSpec | None = None, pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None,
                 cover_all: bool = True) -> None:
        Pooling2D.__init__(self, ksize, stride, pad, cover_all)
        self.outsize = None if outsize is None else _windows.as_tuple(
            outsize, 2, 'outsize', 0)

    outh = property(lambda self: None if self.outsize is None else self.outsize[0],
                    doc='The output height given, or None.')
    outw = property(lambda self: None if self.outsize is None else self.outsize[1],
                    doc='The output width given, or None.')


@guarded
def unpooling_2d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None,
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


class Unpooling2DGrad(AdjointNode):
    """The gradient of :class:`Unpooling2D`, applied to ``(gy,)``: each input pixel
    gets the sum of the output gradients over its window.

    Args:
        unpooling2d: the :class:`Unpooling2D` node of the forward pass.
        in_shape: the input shape ``(n, c, h, w)`` (taken from ``unpooling2d`` when
            it ran).
    """

    def __init__(self, unpooling2d: Unpooling2D,
                 in_shape: tuple[int, ...] | None = None) -> None:
        self.unpooling2d = unpooling2d
        self._given_shape = None if in_shape is None else tuple(in_shape)

    def input_shape(self, gy: NdArray) -> tuple[int, ...]:
        if self._given_shape is not None:
            return self._given_shape
        win = getattr(self.unpooling2d, '_win', None)
        if win is None:
            raise ValueError('Unpooling2DGrad needs in_shape before its node has run')
        # unpooling's windows lie on its output: its input has the windows' count
        return tuple(gy.shape[:2]) + tuple(win.out)

    def primal(self) -> FunctionNode:
        p = self.unpooling2d
        return Unpooling2D(p.ksize, p.stride, p.pad, p.outsize, p.cover_all)
