"""DilatedConvolution2D: the two-dimensional dilated convolution layer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.links import _util
from chainer.links.connection._conv_base import ConvolutionBase

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class DilatedConvolution2D(ConvolutionBase):
    """Two-dimensional dilated convolution (see
    :func:`chainer.functions.dilated_convolution_2d`).

    ``W`` has shape ``(out_channels, in_channels, kh, kw)`` and ``b`` shape
    ``(out_channels,)``. ``DilatedConvolution2D(out_channels, ksize)`` (or
    ``in_channels=None``) leaves the number of input channels to the first input.

    Args:
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or a pair.
        stride: an int or a pair.
        pad: an int or a pair.
        dilate: the dilation, an int or a pair.
        nobias: if True, there is no bias.
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
    """

    _grouped = False

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec | None = None,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, dilate: ShapeSpec = 1,
                 nobias: bool = False, initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None) -> None:
        super().__init__()
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self._init_2d_geometry(ksize, stride, pad, dilate)
        self._init_params(in_channels, out_channels, nobias, initialW, initial_bias)

    def forward(self, x: VariableOrArray) -> Variable:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        self._initialize_lazily(x)
        return functions.dilated_convolution_2d(x, self.W, self.b, self.stride, self.pad,
                                                self.dilate)
