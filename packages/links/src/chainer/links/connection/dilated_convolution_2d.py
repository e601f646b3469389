"""DilatedConvolution2D: the two-dimensional dilated convolution layer."""

from __future__ import annotations

from typing import Any

from chainer import functions, initializers
from chainer.link import Link
from chainer.links import _util
from chainer.variable import Parameter


class DilatedConvolution2D(Link):
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

    def __init__(self, in_channels: int | None, out_channels: int, ksize: Any = None,
                 stride: Any = 1, pad: Any = 0, dilate: Any = 1, nobias: bool = False,
                 initialW: Any = None, initial_bias: Any = None) -> None:
        super().__init__()
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self.ksize = ksize
        self.stride = _util.pair(stride)
        self.pad = _util.pair(pad)
        self.dilate = _util.pair(dilate)
        self.out_channels = out_channels
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _util.bias_parameter(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels: int) -> None:
        kh, kw = _util.pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))

    def forward(self, x: Any) -> Any:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return functions.dilated_convolution_2d(x, self.W, self.b, self.stride, self.pad,
                                                self.dilate)
