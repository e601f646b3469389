"""Two-dimensional transposed convolution (``deconvolution_2d``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.connection.convolution_2d import parse_dilate_groups
from chainer.functions.connection.deconvolution_nd import DeconvolutionND
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.functions.connection.deconvolution_nd import OutsizeSpec
    from chainer.types import ShapeSpec, VariableOrArray


class Deconvolution2DFunction(DeconvolutionND):
    """2-D transposed convolution: :class:`DeconvolutionND` with v7's 2-D attributes.

    ``sy, sx`` (stride), ``ph, pw`` (padding), ``outh, outw`` (output size or
    None), ``dy, dx`` (dilation) and ``groups``.
    """

    _bias_of_x_dtype = True  # as v7's: a bias of x's dtype
    outh: int | None
    outw: int | None

    def __init__(self, stride: ShapeSpec = 1, pad: ShapeSpec = 0, outsize: OutsizeSpec = None,
                 **kwargs: int | Sequence[int]) -> None:
        dilate, groups = parse_dilate_groups(kwargs)
        super().__init__(2, stride, pad, outsize, dilate, groups)
        self.sy, self.sx = self.stride
        self.ph, self.pw = self.pad
        self.outh, self.outw = (None, None) if self.outsize is None else self.outsize
        self.dy, self.dx = self.dilate


@guarded
def deconvolution_2d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                     stride: ShapeSpec = 1, pad: ShapeSpec = 0, outsize: OutsizeSpec = None,
                     **kwargs: int | Sequence[int]) -> Variable:
    """Two-dimensional transposed convolution (deconvolution).

    The adjoint of :func:`~chainer.functions.convolution_2d` in its input: each
    input pixel ``x[n, c, i, j]`` adds ``W[c, o] * x[n, c, i, j]`` to the output
    window at ``(i s_y - p_h, j s_x - p_w)`` (dilated by ``dilate``), plus ``b[o]``.

    Args:
        x: input of shape ``(n, c_I, h, w)``.
        W: filters of shape ``(c_I, c_O / groups, k_H, k_W)``.
        b: bias of shape ``(c_O,)`` or None.
        stride: int or pair ``(s_y, s_x)``.
        pad: int or pair ``(p_h, p_w)``: the padding of the convolution this transposes.
        outsize: ``(h_O, w_O)``; by default ``get_deconv_outsize(h, k_H, s_y, p_h,
            d=d_y)`` (and so for w).
        dilate: (keyword) dilation, int or pair.
        groups: (keyword) number of channel groups.

    Returns:
        Output of shape ``(n, c_O, h_O, w_O)``, of ``x``'s dtype.

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks, channel counts
            or an ``outsize`` that does not fit ``x``.
        ValueError: for bad ``stride``, ``pad``, ``dilate``, ``groups``, the removed
            ``deterministic`` argument, or an estimated output size that is not positive.
        TypeError: for an unknown keyword argument.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.ones((1, 1, 2, 2), np.float32)
        >>> W = np.ones((1, 1, 2, 2), np.float32)
        >>> y = F.deconvolution_2d(x, W, stride=2)
        >>> y.shape
        (1, 1, 4, 4)
        >>> print(y.array[0, 0])
        [[1. 1. 1. 1.]
         [1. 1. 1. 1.]
         [1. 1. 1. 1.]
         [1. 1. 1. 1.]]
    """
    dilate, groups = parse_dilate_groups(kwargs)
    args = (x, W) if b is None else (x, W, b)
    fnode = Deconvolution2DFunction(stride, pad, outsize, dilate=dilate, groups=groups)
    return fnode.apply(args)[0]
