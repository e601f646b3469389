"""MLPConvolution2D: a stack of convolutions, the first k x k and the others 1 x 1."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.link import ChainList
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.utils import argument

if TYPE_CHECKING:
    from chainer.types import ShapeSpec, VariableOrArray
    from chainer.variable import Variable

_WSCALE = ('wscale is not supported anymore. Use conv_init and bias_init arguments to '
           'change the scale of initial parameters.')


class MLPConvolution2D(ChainList):
    """Two-dimensional MLP convolution layer (the "Network in Network" mlpconv).

    A :class:`~chainer.ChainList` of :class:`~chainer.links.Convolution2D`: the
    first with ``ksize``, ``stride`` and ``pad``, the others 1 x 1, with
    ``activation`` between them (not after the last).
    ``MLPConvolution2D(out_channels, ksize)`` leaves the input channels lazy.

    Args:
        in_channels: the number of input channels, or None (lazy); with
            ``ksize`` omitted, the output channels.
        out_channels: the output channels of each convolution (a sequence); with
            ``ksize`` omitted, the filter size.
        ksize: the filter size of the first convolution.
        stride: the stride of the first convolution.
        pad: the padding of the first convolution.
        activation: the activation between the convolutions (``relu``).
        conv_init: (keyword) initializer of the filters.
        bias_init: (keyword) initializer of the biases.

    Raises:
        TypeError: for an extra positional argument (``wscale`` of Chainer v1)
            or an unknown keyword argument, or a sequence of input channels.
        ValueError: for ``wscale``, or when ``out_channels`` is empty.
    """

    def __init__(self, in_channels: int | Sequence[int] | None, out_channels: ShapeSpec,
                 ksize: ShapeSpec | None = None,
                 stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                 activation: Callable[[Any], Any] = functions.relu, *args: Any,
                 **kwargs: Any) -> None:
        if args:
            raise TypeError('MLPConvolution2D takes at most 6 positional arguments (the 7th, '
                            'wscale, was removed)')
        conv_init, bias_init = argument.parse_kwargs(
            kwargs, ('conv_init', None), ('bias_init', None), wscale=_WSCALE)
        if ksize is None:
            # MLPConvolution2D(out_channels, ksize): lazy input channels
            first_in, channels, ksize = None, in_channels, out_channels
        else:
            first_in, channels = in_channels, out_channels
        if not isinstance(channels, Sequence) or len(channels) == 0:
            raise ValueError('out_channels must be a non-empty sequence of channel counts, '
                             f'not {channels!r}')
        if isinstance(first_in, Sequence):
            raise TypeError(f'in_channels must be an int or None, not {first_in!r}')
        convs = [Convolution2D(first_in, channels[0], ksize, stride, pad,
                               initialW=conv_init, initial_bias=bias_init)]
        for n_in, n_out in zip(channels, channels[1:]):
            convs.append(Convolution2D(n_in, n_out, 1, initialW=conv_init,
                                       initial_bias=bias_init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the convolutions to ``x`` with the activation between them."""
        convs = self._children
        activation = self.activation
        for conv in convs[:-1]:
            x = activation(conv(x))
        return convs[-1](x)
