"""DepthwiseConvolution2D: a separate convolution for each input channel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Link
from chainer.links import _util
from chainer.links.connection import _conv_base

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Parameter, Variable


class DepthwiseConvolution2D(Link):
    """Depthwise convolution (see :func:`chainer.functions.depthwise_convolution_2d`).

    Each input channel is convolved with ``channel_multiplier`` filters of its
    own: ``W`` has shape ``(channel_multiplier, in_channels, kh, kw)`` and ``b``
    shape ``(in_channels * channel_multiplier,)``.

    Args:
        in_channels: the number of input channels, or None (lazy: ``W`` and ``b``
            are created at the first call).
        channel_multiplier: the number of filters per input channel.
        ksize: the filter size, an int or a pair.
        stride: an int or a pair.
        pad: an int or a pair.
        nobias: if True, there is no bias.
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
    """

    W: Parameter
    b: Parameter | None

    def __init__(self, in_channels: int | None, channel_multiplier: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None) -> None:
        super().__init__()
        self.ksize = ksize
        self.stride = _util.pair(stride)
        self.pad = _util.pair(pad)
        self.channel_multiplier = channel_multiplier
        _conv_base.add_lazy_weight_and_bias(self, nobias, initialW, initial_bias)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels: int) -> None:
        kh, kw = _util.pair(self.ksize)
        self.W.initialize((self.channel_multiplier, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(in_channels * self.channel_multiplier)

    def forward(self, x: VariableOrArray) -> Variable:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return functions.depthwise_convolution_2d(x, self.W, self.b, self.stride, self.pad)
