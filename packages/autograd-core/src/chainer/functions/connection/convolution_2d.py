"""Two-dimensional convolution (``convolution_2d``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.connection.convolution_nd import ConvolutionND, ConvolutionNDGradW
from chainer.utils import argument
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import DTypeSpec, ShapeSpec, VariableOrArray

_DETERMINISTIC = ('deterministic argument is not supported anymore. Use '
                  "chainer.using_config('cudnn_deterministic', value) context where value "
                  'is either `True` or `False`.')


def parse_dilate_groups(kwargs: dict[str, int | Sequence[int]]) -> tuple[ShapeSpec, int]:
    """Read the keyword-only ``dilate`` and ``groups`` of the 2-D convolutions (popped from
    ``kwargs``; 1 when absent).

    Raises:
        ValueError: for the removed ``deterministic`` argument.
        TypeError: for any other keyword.
    """
    return argument.parse_kwargs(kwargs, ('dilate', 1), ('groups', 1),
                                 deterministic=_DETERMINISTIC)


class Convolution2DFunction(ConvolutionND):
    """2-D convolution: :class:`ConvolutionND` with v7's 2-D attributes.

    ``sy, sx`` (stride), ``ph, pw`` (padding), ``dy, dx`` (dilation),
    ``cover_all`` and ``groups``. Its bias must have x's dtype, as v7's.
    """

    _bias_of_x_dtype = True

    def __init__(self, stride: ShapeSpec = 1, pad: ShapeSpec = 0, cover_all: bool = False,
                 **kwargs: int | Sequence[int]) -> None:
        dilate, groups = parse_dilate_groups(kwargs)
        super().__init__(2, stride, pad, cover_all, dilate, groups)
        self.sy, self.sx = self.stride
        self.ph, self.pw = self.pad
        self.dy, self.dx = self.dilate


class Convolution2DGradW(ConvolutionNDGradW):
    """The filter gradient of a 2-D convolution: ``(x, gy) -> gW``."""

    def __init__(self, conv2d: Convolution2DFunction, ksize: Sequence[int],
                 w_dtype: DTypeSpec) -> None:
        super().__init__(conv2d, tuple(ksize), w_dtype)


@guarded
def convolution_2d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                   stride: ShapeSpec = 1, pad: ShapeSpec = 0, cover_all: bool = False,
                   **kwargs: int | Sequence[int]) -> Variable:
    """Two-dimensional convolution.

    ``y[n, o, i, j] = sum_{c, p, q} W[o, c, p, q] x[n, g c_g + c, i s_y + p d_y - p_h,
    j s_x + q d_x - p_w] + b[o]``, zero outside the image, with the input channels
    of the group ``g`` of output channel ``o``. Computed as one matrix product
    of the filters with the image patches (im2col).

    Args:
        x: input of shape ``(n, c_I, h, w)``.
        W: filters of shape ``(c_O, c_I / groups, k_H, k_W)``.
        b: bias of shape ``(c_O,)`` or None.
        stride: int or pair ``(s_y, s_x)``.
        pad: zero padding, int or pair ``(p_h, p_w)``.
        cover_all: add output positions so that every pixel is covered.
        dilate: (keyword) dilation, int or pair ``(d_y, d_x)``.
        groups: (keyword) number of channel groups.

    Returns:
        Output of shape ``(n, c_O, h_O, w_O)``, of ``x``'s dtype, with
        ``h_O = get_conv_outsize(h, k_H, s_y, p_h, cover_all, d_y)`` (and so for w).

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks, or channel
            counts that do not match ``W`` and ``groups``.
        ValueError: when the kernel is larger than the padded input, for bad
            ``stride``, ``pad``, ``dilate`` or ``groups``, or the removed
            ``deterministic`` argument.
        TypeError: for an unknown keyword argument.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> W = np.ones((2, 1, 3, 3), np.float32)
        >>> y = F.convolution_2d(x, W, stride=1, pad=0)
        >>> y.shape
        (1, 2, 2, 2)
        >>> print(y.array[0, 0])
        [[45. 54.]
         [81. 90.]]
    """
    dilate, groups = parse_dilate_groups(kwargs)
    args = (x, W) if b is None else (x, W, b)
    fnode = Convolution2DFunction(stride, pad, cover_all, dilate=dilate, groups=groups)
    return fnode.apply(args)[0]
