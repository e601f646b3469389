"""DeconvolutionND (and Deconvolution1D / Deconvolution3D): N-dimensional transposed
convolution layers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.links import _util
from chainer.links.connection._conv_base import ConvolutionBase

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class DeconvolutionND(ConvolutionBase):
    """N-dimensional transposed convolution (see :func:`chainer.functions.deconvolution_nd`).

    ``W`` has shape ``(in_channels, out_channels / groups, k_1, ..., k_N)`` and
    ``b`` shape ``(out_channels,)``. ``DeconvolutionND(ndim, out_channels, ksize)``
    (or ``in_channels=None``) leaves the number of input channels to the first input.

    Args:
        ndim: the number of spatial dimensions.
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or an ``ndim``-tuple.
        stride: an int or an ``ndim``-tuple.
        pad: an int or an ``ndim``-tuple.
        nobias: if True, there is no bias.
        outsize: the output size (an ``ndim``-tuple), None to compute it.
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
        dilate: dilation, an int or an ``ndim``-tuple.
        groups: the number of channel groups.

    Raises:
        ValueError: when the channels are not divisible by ``groups``.
    """

    _transposed = True

    def __init__(self, ndim: int, in_channels: int | None, out_channels: int,
                 ksize: ShapeSpec | None = None, stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                 nobias: bool = False, outsize: ShapeSpec | None = None,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, dilate: ShapeSpec = 1,
                 groups: int = 1) -> None:
        super().__init__()
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self.ksize = _util.ntuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = _util.ntuple(dilate, ndim)
        self.groups = int(groups)
        self._init_params(in_channels, out_channels, nobias, initialW, initial_bias)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the transposed convolution to ``x`` of shape ``(n, in_channels, ...)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        self._initialize_lazily(x)
        return functions.deconvolution_nd(x, self.W, self.b, self.stride, self.pad,
                                          self.outsize, dilate=self.dilate,
                                          groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """One-dimensional transposed convolution: :class:`DeconvolutionND` with ``ndim=1``."""

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 outsize: ShapeSpec | None = None, initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, dilate: ShapeSpec = 1,
                 groups: int = 1) -> None:
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """Three-dimensional transposed convolution: :class:`DeconvolutionND` with ``ndim=3``."""

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 outsize: ShapeSpec | None = None, initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, dilate: ShapeSpec = 1,
                 groups: int = 1) -> None:
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
