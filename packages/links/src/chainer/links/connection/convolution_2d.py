"""Convolution2D: the two-dimensional convolution layer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, functions
from chainer.functions.connection.convolution_2d import parse_dilate_groups
from chainer.links import _util
from chainer.links.connection._conv_base import ConvolutionBase
from chainer.variable import as_array

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class Convolution2D(ConvolutionBase):
    """Two-dimensional convolution layer (see :func:`chainer.functions.convolution_2d`).

    ``W`` has shape ``(out_channels, in_channels / groups, kh, kw)`` and ``b``
    shape ``(out_channels,)``. ``Convolution2D(out_channels, ksize)`` (or
    ``in_channels=None``) leaves the number of input channels to the first input.

    Args:
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        ksize: the filter size, an int or a pair ``(kh, kw)``.
        stride: an int or a pair.
        pad: zero padding, an int or a pair.
        nobias: if True, there is no bias (``b`` is None).
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.
        dilate: (keyword) dilation, an int or a pair.
        groups: (keyword) the number of channel groups.

    Raises:
        ValueError: when ``in_channels`` or ``out_channels`` is not divisible by
            ``groups``, or for the removed ``deterministic`` argument.
        TypeError: for an unknown keyword argument.

    Example:
        >>> import numpy as np
        >>> import chainer.links as L
        >>> conv = L.Convolution2D(3, 8, ksize=3, stride=1, pad=1)
        >>> conv.W.shape
        (8, 3, 3, 3)
        >>> x = np.zeros((2, 3, 16, 16), np.float32)
        >>> conv(x).shape
        (2, 8, 16, 16)
        >>> L.Convolution2D(None, 4, ksize=2, stride=2)(x).shape
        (2, 4, 8, 8)
    """

    def __init__(self, in_channels: int | None, out_channels: int, ksize: ShapeSpec | None = None,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, **kwargs: Any) -> None:
        super().__init__()
        dilate, groups = parse_dilate_groups(kwargs)
        in_channels, out_channels, ksize = _util.shift_channels(in_channels, out_channels,
                                                                ksize)
        self._init_2d_geometry(ksize, stride, pad, dilate)
        self.in_channels = in_channels
        self.groups = int(groups)
        self.cudnn_fast = chainer.config.compute_mode == 'cudnn_fast'
        self.x_layout = None
        self._init_params(in_channels, out_channels, nobias, initialW, initial_bias)

    @classmethod
    def from_params(cls, W: VariableOrArray, b: VariableOrArray | None = None,
                    stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                    nobias: bool = False, **kwargs: Any) -> Convolution2D:
        """Build a Convolution2D whose parameters are copies of ``W`` (and ``b``).

        Args:
            W: filters of shape ``(out_channels, in_channels / groups, kh, kw)``.
            b: bias of shape ``(out_channels,)`` (zero when None).
            stride, pad, nobias, dilate, groups: as in the constructor.

        Raises:
            ValueError: when ``W`` is not 4-dimensional or ``b`` has the wrong size.
        """
        W = as_array(W)
        if W.ndim != 4:
            raise ValueError(f'W must be 4-dimensional, not of shape {W.shape}')
        groups = kwargs.get('groups', 1)
        out_channels, in_per_group, kh, kw = W.shape
        if b is not None:
            b = as_array(b)
            if b.size != out_channels:
                raise ValueError(f'the size of b ({b.size}) does not match the number of '
                                 f'output channels ({out_channels})')
        return cls(in_per_group * groups, out_channels, (kh, kw), stride, pad, nobias,
                   initialW=W.copy(), initial_bias=None if b is None else b.copy(),
                   **kwargs)

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """The constructor's arguments, shown by ``str(link)``."""
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def forward(self, x: VariableOrArray) -> Variable:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)`` (initializing ``W`` if lazy).

        Raises:
            chainer.utils.type_check.InvalidType: when the channels of ``x`` do not
                match ``W``.
            RuntimeError: under ``compute_mode='cudnn_fast'`` on the CPU (that mode
                needs cuDNN).
        """
        self._initialize_lazily(x)
        if self.cudnn_fast and backend.get_array_module(x) is numpy:
            raise RuntimeError("compute_mode 'cudnn_fast' needs cuDNN: it is not available "
                               'for an input on the CPU')
        return functions.convolution_2d(x, self.W, self.b, self.stride, self.pad,
                                        dilate=self.dilate, groups=self.groups)
