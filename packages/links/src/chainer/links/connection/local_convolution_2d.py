"""LocalConvolution2D: a convolution with separate filters at each output position."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.link import Link
from chainer.links import _util
from chainer.links.connection import _conv_base
from chainer.utils import argument

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Parameter, Variable


class LocalConvolution2D(Link):
    """Two-dimensional local (unshared) convolution (see
    :func:`chainer.functions.local_convolution_2d`).

    ``W`` has shape ``(out_channels, out_h, out_w, in_channels, kh, kw)`` and
    ``b`` shape ``(out_channels, out_h, out_w)``, where the output size follows
    from ``in_size``, ``ksize`` and ``stride`` (no padding). When
    ``in_channels`` or ``in_size`` is None, both are read off the first input.

    Args:
        in_channels: the number of input channels, or None (lazy).
        out_channels: the number of output channels.
        in_size: the input's spatial size, an int or a pair ``(h, w)``, or None.
        ksize: the filter size, an int or a pair.
        stride: an int or a pair.
        nobias: if True, there is no bias.
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: initializer of ``b`` (zero by default) or an array.

    Raises:
        TypeError: for an unknown keyword argument.
    """

    W: Parameter
    b: Parameter | None

    def __init__(self, in_channels: int | None, out_channels: int,
                 in_size: ShapeSpec | None = None,
                 ksize: ShapeSpec | None = None, stride: ShapeSpec = 1, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None, **kwargs: Any) -> None:
        super().__init__()
        argument.assert_kwargs_empty(kwargs)
        self.ksize = ksize
        self.stride = _util.pair(stride)
        self.out_channels = out_channels
        _conv_base.add_lazy_weight_and_bias(self, nobias, initialW, initial_bias)
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, _util.pair(in_size))

    def _initialize_params(self, in_channels: int, in_size: Any) -> None:
        kh, kw = _util.pair(self.ksize)
        sy, sx = self.stride
        h, w = in_size
        out_h = (h - kh) // sy + 1
        out_w = (w - kw) // sx + 1
        if out_h <= 0 or out_w <= 0:
            raise ValueError(f'LocalConvolution2D: the input size {(h, w)} is smaller than '
                             f'the filter size {(kh, kw)}')
        self.W.initialize((self.out_channels, out_h, out_w, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.out_channels, out_h, out_w))

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the local convolution to ``x`` of shape ``(n, in_channels, h, w)``.

        Raises:
            chainer.utils.type_check.InvalidType: when ``x`` does not match ``W``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return functions.local_convolution_2d(x, self.W, self.b, self.stride)
