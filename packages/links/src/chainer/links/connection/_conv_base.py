"""The part shared by the constructors of the convolution-family links.

:class:`ConvolutionBase` holds what ``Convolution2D``, ``ConvolutionND``,
``Deconvolution2D``, ``DeconvolutionND``, ``DilatedConvolution2D`` and
``DeformableConvolution2DSampler`` did alike: the filter ``W`` (drawn at
construction when ``in_channels`` is known, else at the first input), the bias ``b``
of ``out_channels`` elements (``None`` with ``nobias``), the divisibility checks of
``groups`` and the layout of ``W``. Each link keeps its own v7 signature and
attributes (``ksize``, ``stride``, ``pad``, ... as v7 stored them) and calls
:meth:`ConvolutionBase._init_params` once they are set.

``W`` is drawn before ``b`` is made, as in v7, so seeded draws are v7's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from chainer import initializers
from chainer.link import Link
from chainer.links import _util
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec


class ConvolutionBase(Link):
    """Base of the convolution links with a filter ``W`` and a bias of ``out_channels``.

    Subclasses set ``ksize`` (an int or a tuple of the spatial sizes) before calling
    :meth:`_init_params`; ``groups`` too when :attr:`_grouped`.
    """

    #: Whether ``W`` is ``(in_channels, out_channels / groups, *ksize)`` (transposed
    #: convolutions) rather than ``(out_channels, in_channels / groups, *ksize)``.
    _transposed: ClassVar[bool] = False
    #: Whether the link has ``groups`` (channel groups) to check and to divide by.
    _grouped: ClassVar[bool] = True

    ksize: Any
    # pairs in the 2-D links, as given in the N-D ones (as v7)
    stride: ShapeSpec
    pad: ShapeSpec
    groups: int
    out_channels: int
    W: Parameter
    b: Parameter | None

    def _init_2d_geometry(self, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec,
                          dilate: ShapeSpec) -> None:
        """Store the geometry as v7's 2-D links did: ``ksize`` as given, ``stride``,
        ``pad`` and ``dilate`` as pairs."""
        self.ksize = ksize
        self.stride = _util.pair(stride)
        self.pad = _util.pair(pad)
        self.dilate = _util.pair(dilate)

    def _init_params(self, in_channels: int | None, out_channels: int, nobias: bool,
                     initialW: InitializerSpec | None,
                     initial_bias: InitializerSpec | None) -> None:
        """Set ``out_channels`` and make ``W`` (drawn now when ``in_channels`` is known)
        and ``b``.

        Raises:
            ValueError: when ``out_channels`` or ``in_channels`` is not divisible by
                ``groups``.
        """
        self.out_channels = out_channels
        if self._grouped and out_channels % self.groups != 0:
            raise ValueError('the number of output channels must be divisible by the '
                             f'number of groups ({out_channels} and {self.groups})')
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _util.bias_parameter(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels: int) -> None:
        """Draw ``W`` for ``in_channels`` input channels.

        Raises:
            ValueError: when ``in_channels`` is not divisible by ``groups``.
        """
        kernel = _util.pair(self.ksize)
        if not self._grouped:
            self.W.initialize((self.out_channels, in_channels) + kernel)
            return
        groups = self.groups
        if in_channels % groups != 0:
            raise ValueError('the number of input channels must be divisible by the '
                             f'number of groups ({in_channels} and {groups})')
        if self._transposed:
            self.W.initialize((in_channels, self.out_channels // groups) + kernel)
        else:
            self.W.initialize((self.out_channels, in_channels // groups) + kernel)

    def _initialize_lazily(self, x: Any) -> None:
        """Draw ``W`` from the channels of the first input ``x`` when it is still lazy."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])


def add_lazy_weight_and_bias(link: Link, nobias: bool, initialW: InitializerSpec | None,
                             initial_bias: InitializerSpec | None) -> None:
    """Give ``link`` a filter ``W`` and a bias ``b`` (zero by default, None with
    ``nobias``), both shaped later by the link's ``_initialize_params``.

    For the links whose bias shape depends on the input too
    (``DepthwiseConvolution2D``, ``LocalConvolution2D``); sets ``link.nobias``.
    """
    link.nobias = nobias
    if initial_bias is None:
        initial_bias = 0
    with link.init_scope():
        link.W = Parameter(initializers._get_initializer(initialW))
        link.b = None if nobias else Parameter(initializers._get_initializer(initial_bias))
