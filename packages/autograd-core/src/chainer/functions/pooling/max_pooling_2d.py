"""2-dimensional max pooling."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.pooling import _windows
from chainer.functions.pooling.max_pooling_nd import MaxPoolingND, Pooled, _apply
from chainer.functions.pooling.pooling_2d import Pooling2D

if TYPE_CHECKING:
    from chainer.types import ShapeSpec, VariableOrArray


class MaxPooling2D(Pooling2D, MaxPoolingND):
    """:class:`MaxPoolingND` over images ``(n, c, h, w)``, with the attributes of
    :class:`Pooling2D` (``kh``, ``sy``, ...).

    After the forward, :attr:`indexes` holds the position of each maximum in its
    window (``ky * kw + kx``), as :func:`~chainer.functions.upsampling_2d` expects.
    """

    def __init__(self, ksize: ShapeSpec, stride: ShapeSpec | None = None, pad: ShapeSpec = 0,
                 cover_all: bool = True,
                 return_indices: bool = False) -> None:
        Pooling2D.__init__(self, ksize, stride, pad, cover_all)
        self.return_indices = return_indices

    @property
    def label(self) -> str:
        # v7's max_pooling_2d applied a MaxPoolingND: its messages and graphs say so
        return 'MaxPoolingND'


@guarded
def max_pooling_2d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                   pad: ShapeSpec = 0,
                   cover_all: bool = True, return_indices: bool = False) -> Pooled:
    """Spatial max pooling of images.

    Args:
        x: variable of shape ``(n, c, h, w)``, floating point.
        ksize: window size (int or pair ``(kh, kw)``).
        stride: window stride (int, pair, or None for ``ksize``).
        pad: padding on each side (int or pair); it never wins the maximum.
        cover_all: add windows so that every pixel is pooled (the output may be larger).
        return_indices: also return the position of each maximum in its window.

    Returns:
        The output variable ``(n, c, out_h, out_w)``, or ``(y, indexes)`` when
        ``return_indices``: ``indexes`` (int64, the output's shape, on ``x``'s device)
        holds ``ky * kw + kx`` of each maximum, for
        :func:`~chainer.functions.upsampling_2d`.

    Raises:
        ValueError: when ``x`` is not 4-dimensional, for bad window arguments, or a
            window that does not fit the padded input (the message names it).
        chainer.utils.type_check.InvalidType: when ``x`` is not floating point.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.max_pooling_2d(x, ksize=2, stride=2)
        >>> print(y.array)
        [[[[ 5.  7.]
           [13. 15.]]]]
    """
    _windows.check_spatial_ndim(x, 2)
    return _apply(MaxPooling2D(ksize, stride, pad, cover_all, return_indices), x)
