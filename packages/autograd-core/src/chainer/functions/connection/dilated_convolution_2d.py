"""Two-dimensional dilated convolution (``dilated_convolution_2d``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.connection.convolution_2d import Convolution2DFunction
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import ShapeSpec, VariableOrArray


class DilatedConvolution2DFunction(Convolution2DFunction):
    """A :class:`Convolution2DFunction` built with v7's dilated-convolution arguments."""

    def __init__(self, stride: ShapeSpec = 1, pad: ShapeSpec = 0, dilate: ShapeSpec = 1,
                 cover_all: bool = False) -> None:
        super().__init__(stride, pad, cover_all, dilate=dilate)

    @property
    def label(self) -> str:
        """``'Convolution2DFunction'``: v7 applied that node for a dilated convolution."""
        return 'Convolution2DFunction'


@guarded
def dilated_convolution_2d(x: VariableOrArray, W: VariableOrArray,
                           b: VariableOrArray | None = None, stride: ShapeSpec = 1,
                           pad: ShapeSpec = 0, dilate: ShapeSpec = 1,
                           cover_all: bool = False) -> Variable:
    """Two-dimensional dilated convolution.

    The same as :func:`~chainer.functions.convolution_2d` with ``dilate``: the
    filter taps are ``dilate`` pixels apart.

    Args:
        x: input of shape ``(n, c_I, h, w)``.
        W: filters of shape ``(c_O, c_I, k_H, k_W)``.
        b: bias of shape ``(c_O,)`` or None.
        stride: int or pair.
        pad: zero padding, int or pair.
        dilate: dilation, int or pair.
        cover_all: add output positions so that every pixel is covered.

    Returns:
        Output of shape ``(n, c_O, h_O, w_O)``.

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks or channel counts.
        ValueError: when the dilated kernel is larger than the padded input, or
            for bad ``stride``, ``pad`` or ``dilate``.
    """
    args = (x, W) if b is None else (x, W, b)
    return DilatedConvolution2DFunction(stride, pad, dilate, cover_all).apply(args)[0]
