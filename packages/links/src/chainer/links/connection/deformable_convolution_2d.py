"""DeformableConvolution2D: a convolution whose sampling positions are learned offsets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions, initializers
from chainer.link import Chain
from chainer.links import _util
from chainer.links.connection._conv_base import ConvolutionBase
from chainer.links.connection.convolution_2d import Convolution2D

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class DeformableConvolution2D(Chain):
    """Two-dimensional deformable convolution layer.

    A :class:`~chainer.links.Convolution2D` (``offset_conv``) computes from the
    input the offsets (``2 * kh * kw`` channels) of the sampling positions; a
    :class:`DeformableConvolution2DSampler` (``deform_conv``) then convolves the
    input sampled at the shifted positions (see
    :func:`chainer.functions.deformable_convolution_2d_sampler`).

    Args:
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or a pair.
        stride: an int or a pair (shared by both convolutions).
        pad: an int or a pair (shared by both convolutions).
        offset_nobias: if True, ``offset_conv`` has no bias.
        offset_initialW: initializer of ``offset_conv.W``.
        offset_initial_bias: initializer of ``offset_conv.b``.
        deform_nobias: if True, ``deform_conv`` has no bias.
        deform_initialW: initializer of ``deform_conv.W`` (zero by default).
        deform_initial_bias: initializer of ``deform_conv.b``.
    """

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, offset_nobias: bool = False,
                 offset_initialW: InitializerSpec | None = None,
                 offset_initial_bias: InitializerSpec | None = None, deform_nobias: bool = False,
                 deform_initialW: InitializerSpec | None = None,
                 deform_initial_bias: InitializerSpec | None = None) -> None:
        super().__init__()
        kh, kw = _util.pair(ksize)
        with self.init_scope():
            self.offset_conv = Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad, nobias=offset_nobias,
                initialW=offset_initialW, initial_bias=offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad, nobias=deform_nobias,
                initialW=deform_initialW, initial_bias=deform_initial_bias)

    def forward(self, x: VariableOrArray) -> Variable:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)`` at learned positions."""
        offset = self.offset_conv(x)
        return self.deform_conv(x, offset)


class DeformableConvolution2DSampler(ConvolutionBase):
    """The sampling convolution of :class:`DeformableConvolution2D`.

    ``W`` has shape ``(out_channels, in_channels, kh, kw)`` and ``b`` shape
    ``(out_channels,)``; called with the input and the offsets.

    Args:
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or a pair.
        stride: an int or a pair.
        pad: an int or a pair.
        nobias: if True, there is no bias.
        initialW: initializer of ``W`` (zero by default, as in v7) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
    """

    _grouped = False

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None) -> None:
        super().__init__()
        self.ksize = _util.pair(ksize)
        self.stride = _util.pair(stride)
        self.pad = _util.pair(pad)
        if initialW is None:
            initialW = initializers.Zero()
        self.initialW = initialW
        self._init_params(in_channels, out_channels, nobias, initialW, initial_bias)

    def forward(self, x: VariableOrArray, offset: VariableOrArray) -> Variable:
        """Convolve ``x`` sampled at the positions shifted by ``offset``.

        Args:
            x: input of shape ``(n, in_channels, h, w)``.
            offset: offsets of shape ``(n, 2 * kh * kw, out_h, out_w)``.
        """
        self._initialize_lazily(x)
        return functions.deformable_convolution_2d_sampler(x, offset, self.W, self.b,
                                                           self.stride, self.pad)
