"""ConvolutionND (and Convolution1D / Convolution3D): N-dimensional convolution layers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.links import _util
from chainer.links.connection._conv_base import ConvolutionBase
from chainer.variable import as_array

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class ConvolutionND(ConvolutionBase):
    """N-dimensional convolution layer (see :func:`chainer.functions.convolution_nd`).

    ``W`` has shape ``(out_channels, in_channels / groups, k_1, ..., k_N)`` and
    ``b`` shape ``(out_channels,)``. ``ConvolutionND(ndim, out_channels, ksize)``
    (or ``in_channels=None``) leaves the number of input channels to the first input.

    Args:
        ndim: the number of spatial dimensions.
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or an ``ndim``-tuple.
        stride: an int or an ``ndim``-tuple.
        pad: zero padding, an int or an ``ndim``-tuple.
        nobias: if True, there is no bias (``b`` is None).
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
        cover_all: add output positions so that every input is covered.
        dilate: dilation, an int or an ``ndim``-tuple.
        groups: the number of channel groups.

    Raises:
        ValueError: when the channels are not divisible by ``groups``.
    """

    # The number of dimensions fixed by a subclass (Convolution1D, Convolution3D).
    _fixed_ndim: int | None = None

    def __init__(self, ndim: int, in_channels: int | None, out_channels: int,
                 ksize: ShapeSpec | None = None, stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                 nobias: bool = False, initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, cover_all: bool = False,
                 dilate: ShapeSpec = 1, groups: int = 1) -> None:
        super().__init__()
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self.ksize = _util.ntuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = _util.ntuple(dilate, ndim)
        self.groups = int(groups)
        self._init_params(in_channels, out_channels, nobias, initialW, initial_bias)

    @classmethod
    def from_params(cls, W: VariableOrArray, b: VariableOrArray | None = None,
                    stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                    nobias: bool = False, **kwargs: Any) -> ConvolutionND:
        """Build a convolution whose parameters are copies of ``W`` (and ``b``).

        The number of spatial dimensions is ``W.ndim - 2``; ``cover_all``,
        ``dilate`` and ``groups`` may be given as keywords.

        Raises:
            ValueError: when ``W`` has fewer than 3 dimensions or ``b`` has the wrong size.
        """
        W = as_array(W)
        if W.ndim < 3:
            raise ValueError(f'W must have at least 3 dimensions, not shape {W.shape}')
        groups = kwargs.get('groups', 1)
        out_channels, in_per_group = W.shape[:2]
        if b is not None:
            b = as_array(b)
            if b.size != out_channels:
                raise ValueError(f'the size of b ({b.size}) does not match the number of '
                                 f'output channels ({out_channels})')
        args = (in_per_group * groups, out_channels, W.shape[2:], stride, pad, nobias,
                W.copy(), None if b is None else b.copy())
        ndim = W.ndim - 2
        if cls._fixed_ndim is None:
            return cls(ndim, *args, **kwargs)
        if ndim != cls._fixed_ndim:
            raise ValueError(f'{cls.__name__} needs a {cls._fixed_ndim + 2}-dimensional W, '
                             f'not shape {W.shape}')
        # a subclass of fixed dimensions (Convolution1D, ...) takes no ndim
        fixed: Callable[..., ConvolutionND] = cls
        return fixed(*args, **kwargs)

    def forward(self, x: VariableOrArray) -> Variable:
        """Convolve ``x`` of shape ``(n, in_channels, d_1, ..., d_N)``.

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
        """
        self._initialize_lazily(x)
        return functions.convolution_nd(x, self.W, self.b, self.stride, self.pad,
                                        cover_all=self.cover_all, dilate=self.dilate,
                                        groups=self.groups)


class Convolution1D(ConvolutionND):
    """One-dimensional convolution layer: :class:`ConvolutionND` with ``ndim=1``."""

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, cover_all: bool = False,
                 dilate: ShapeSpec = 1, groups: int = 1) -> None:
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)

    _fixed_ndim = 1


class Convolution3D(ConvolutionND):
    """Three-dimensional convolution layer: :class:`ConvolutionND` with ``ndim=3``."""

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, cover_all: bool = False,
                 dilate: ShapeSpec = 1, groups: int = 1) -> None:
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)

    _fixed_ndim = 3

