"""Inception: the Inception module of GoogLeNet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Chain
from chainer.links.connection.convolution_2d import Convolution2D

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class Inception(Chain):
    """Inception module (Szegedy et al., "Going Deeper with Convolutions").

    Four branches on the same input, concatenated along the channels and
    passed through ReLU: a 1 x 1 convolution (``conv1``); a 1 x 1 projection
    (``proj3``) then a 3 x 3 convolution (``conv3``); a 1 x 1 projection
    (``proj5``) then a 5 x 5 convolution (``conv5``); a 3 x 3 max pooling then
    a 1 x 1 projection (``projp``). The spatial size is kept.

    Args:
        in_channels: the number of input channels, or None (lazy).
        out1: output channels of the 1 x 1 branch.
        proj3: channels of the projection before the 3 x 3 convolution.
        out3: output channels of the 3 x 3 branch.
        proj5: channels of the projection before the 5 x 5 convolution.
        out5: output channels of the 5 x 5 branch.
        proj_pool: output channels of the pooling branch.
        conv_init: initializer of the filters.
        bias_init: initializer of the biases.
    """

    def __init__(self, in_channels: int | None, out1: int, proj3: int, out3: int,
                 proj5: int, out5: int, proj_pool: int, conv_init: InitializerSpec | None = None,
                 bias_init: InitializerSpec | None = None) -> None:
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, out1, 1, initialW=conv_init,
                                       initial_bias=bias_init)
            self.proj3 = Convolution2D(in_channels, proj3, 1, initialW=conv_init,
                                       initial_bias=bias_init)
            self.conv3 = Convolution2D(proj3, out3, 3, pad=1, initialW=conv_init,
                                       initial_bias=bias_init)
            self.proj5 = Convolution2D(in_channels, proj5, 1, initialW=conv_init,
                                       initial_bias=bias_init)
            self.conv5 = Convolution2D(proj5, out5, 5, pad=2, initialW=conv_init,
                                       initial_bias=bias_init)
            self.projp = Convolution2D(in_channels, proj_pool, 1, initialW=conv_init,
                                       initial_bias=bias_init)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the module to ``x`` of shape ``(n, in_channels, h, w)``.

        Returns:
            ``(n, out1 + out3 + out5 + proj_pool, h, w)``.
        """
        relu = functions.relu
        out1 = self.conv1(x)
        out3 = self.conv3(relu(self.proj3(x)))
        out5 = self.conv5(relu(self.proj5(x)))
        pool = self.projp(functions.max_pooling_2d(x, 3, stride=1, pad=1))
        return relu(functions.concat((out1, out3, out5, pool), axis=1))
