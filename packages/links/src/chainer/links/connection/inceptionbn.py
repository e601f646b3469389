"""InceptionBN: the Inception module with batch normalization (Ioffe and Szegedy, 2015)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import functions
from chainer.link import Chain
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.normalization.batch_normalization import BatchNormalization

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class InceptionBN(Chain):
    """Inception module of GoogLeNet-BN: four branches concatenated along the channels.

    The branches, each convolution followed by batch normalization and ReLU:

    1. a 1x1 convolution to ``out1`` channels (only when ``out1 > 0``);
    2. a 1x1 convolution to ``proj3`` channels, then a 3x3 one to ``out3``;
    3. a 1x1 convolution to ``proj33`` channels, then two 3x3 ones to ``out33``;
    4. a 3x3 max or average pooling, then (when ``proj_pool`` is given) a 1x1
       convolution to ``proj_pool`` channels.

    The convolutions have no bias. With ``stride > 1`` the last 3x3
    convolutions and the pooling are strided (and branch 1 must be absent).

    Args:
        in_channels: the number of input channels.
        out1: the output channels of branch 1 (0 for none).
        proj3: the channels of the 1x1 projection of branch 2.
        out3: the output channels of branch 2.
        proj33: the channels of the 1x1 projection of branch 3.
        out33: the output channels of branch 3.
        pooltype: ``'max'`` or ``'avg'``.
        proj_pool: the output channels of the projection after the pooling,
            or None for no projection.
        stride: the stride of the 3x3 convolutions and the pooling.
        conv_init: initializer of the convolution weights.
        dtype: the dtype of the batch normalization parameters.

    Raises:
        NotImplementedError: for another ``pooltype``.
        AssertionError: when ``out1 > 0`` with ``stride != 1`` or without
            ``proj_pool`` (as v7).
    """

    def __init__(self, in_channels: int, out1: int, proj3: int, out3: int, proj33: int,
                 out33: int, pooltype: str, proj_pool: int | None = None, stride: int = 1,
                 conv_init: InitializerSpec | None = None, dtype: DTypeSpec | None = None) -> None:
        super().__init__()
        if pooltype not in ('max', 'avg'):
            raise NotImplementedError(f"pooltype must be 'max' or 'avg', not {pooltype!r}")
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        dtype = chainer.get_dtype(dtype)

        def conv(n_in: int, n_out: int, ksize: int, **kwargs: Any) -> Convolution2D:
            return Convolution2D(n_in, n_out, ksize, nobias=True, initialW=conv_init, **kwargs)

        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, pad=1, stride=stride)
            self.proj33 = conv(in_channels, proj33, 1)
            self.conv33a = conv(proj33, out33, 3, pad=1)
            self.conv33b = conv(out33, out33, 3, pad=1, stride=stride)
            self.proj3n = BatchNormalization(proj3, dtype=dtype)
            self.conv3n = BatchNormalization(out3, dtype=dtype)
            self.proj33n = BatchNormalization(proj33, dtype=dtype)
            self.conv33an = BatchNormalization(out33, dtype=dtype)
            self.conv33bn = BatchNormalization(out33, dtype=dtype)
            if out1 > 0:
                assert stride == 1, 'InceptionBN: branch 1 (out1 > 0) needs stride 1'
                assert proj_pool is not None, 'InceptionBN: branch 1 (out1 > 0) needs proj_pool'
                self.conv1 = conv(in_channels, out1, 1, stride=stride)
                self.conv1n = BatchNormalization(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1)
                self.poolpn = BatchNormalization(proj_pool, dtype=dtype)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the four branches to ``x`` (N, C, H, W) and concatenate their outputs."""
        relu = functions.relu
        outs = []
        if self.out1 > 0:
            outs.append(relu(self.conv1n(self.conv1(x))))
        h3 = relu(self.proj3n(self.proj3(x)))
        outs.append(relu(self.conv3n(self.conv3(h3))))
        h33 = relu(self.proj33n(self.proj33(x)))
        h33 = relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == 'max':
            pooled = functions.max_pooling_2d(x, 3, stride=self.stride, pad=1, cover_all=False)
            # without return_indices, max_pooling_2d returns one Variable
            assert isinstance(pooled, chainer.Variable)
            p = pooled
        else:
            p = functions.average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return functions.concat(outs, axis=1)
