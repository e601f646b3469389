"""DeconvolutionND (and Deconvolution1D / Deconvolution3D): N-dimensional transposed
convolution layers."""

from __future__ import annotations

from typing import Any

from chainer import functions, initializers
from chainer.link import Link
from chainer.links import _util
from chainer.variable import Parameter


class DeconvolutionND(Link):
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

    def __init__(self, ndim: int, in_channels: int | None, out_channels: int,
                 ksize: Any = None, stride: Any = 1, pad: Any = 0, nobias: bool = False,
                 outsize: Any = None, initialW: Any = None, initial_bias: Any = None,
                 dilate: Any = 1, groups: int = 1) -> None:
        super().__init__()
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self.ksize = _util.ntuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = _util.ntuple(dilate, ndim)
        self.groups = int(groups)
        self.out_channels = out_channels
        if out_channels % self.groups != 0:
            raise ValueError('the number of output channels must be divisible by the '
                             f'number of groups ({out_channels} and {self.groups})')
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _util.bias_parameter(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels: int) -> None:
        if in_channels % self.groups != 0:
            raise ValueError('the number of input channels must be divisible by the '
                             f'number of groups ({in_channels} and {self.groups})')
        self.W.initialize((in_channels, self.out_channels // self.groups) + self.ksize)

    def forward(self, x: Any) -> Any:
        """Apply the transposed convolution to ``x`` of shape ``(n, in_channels, ...)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return functions.deconvolution_nd(x, self.W, self.b, self.stride, self.pad,
                                          self.outsize, dilate=self.dilate,
                                          groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """One-dimensional transposed convolution: :class:`DeconvolutionND` with ``ndim=1``."""

    def __init__(self, in_channels: int | None, out_channels: int, ksize: Any,
                 stride: Any = 1, pad: Any = 0, nobias: bool = False, outsize: Any = None,
                 initialW: Any = None, initial_bias: Any = None, dilate: Any = 1,
                 groups: int = 1) -> None:
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """Three-dimensional transposed convolution: :class:`DeconvolutionND` with ``ndim=3``."""

    def __init__(self, in_channels: int | None, out_channels: int, ksize: Any,
                 stride: Any = 1, pad: Any = 0, nobias: bool = False, outsize: Any = None,
                 initialW: Any = None, initial_bias: Any = None, dilate: Any = 1,
                 groups: int = 1) -> None:
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
