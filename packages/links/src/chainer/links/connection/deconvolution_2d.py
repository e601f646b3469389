"""Deconvolution2D: the two-dimensional transposed convolution layer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.functions.connection.convolution_2d import parse_dilate_groups
from chainer.links import _util
from chainer.links.connection._conv_base import ConvolutionBase

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class Deconvolution2D(ConvolutionBase):
    """Two-dimensional transposed convolution (see :func:`chainer.functions.deconvolution_2d`).

    ``W`` has shape ``(in_channels, out_channels / groups, kh, kw)`` and ``b``
    shape ``(out_channels,)``. ``Deconvolution2D(out_channels, ksize)`` (or
    ``in_channels=None``) leaves the number of input channels to the first input.

    Args:
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or a pair.
        stride: an int or a pair.
        pad: an int or a pair.
        nobias: if True, there is no bias.
        outsize: the output size ``(h, w)``; None computes it from the input.
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
        dilate: (keyword) dilation, an int or a pair.
        groups: (keyword) the number of channel groups.

    Raises:
        ValueError: when the channels are not divisible by ``groups``, or for the
            removed ``deterministic`` argument.
        TypeError: for an unknown keyword argument.
    """

    _transposed = True

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec | None = None,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 outsize: ShapeSpec | None = None, initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, **kwargs: Any) -> None:
        super().__init__()
        dilate, groups = parse_dilate_groups(kwargs)
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self._init_2d_geometry(ksize, stride, pad, dilate)
        self.outsize = (None, None) if outsize is None else outsize
        self.groups = int(groups)
        self._init_params(in_channels, out_channels, nobias, initialW, initial_bias)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the transposed convolution to ``x`` of shape ``(n, in_channels, h, w)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        self._initialize_lazily(x)
        return functions.deconvolution_2d(x, self.W, self.b, self.stride, self.pad, self.outsize,
                                          dilate=self.dilate, groups=self.groups)
