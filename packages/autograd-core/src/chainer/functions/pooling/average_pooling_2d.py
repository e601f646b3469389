"""2-dimensional average pooling."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._composite import AdjointNode
from chainer.functions._guard import guarded
from chainer.functions.pooling.average_pooling_nd import AveragePoolingND
from chainer.functions.pooling.pooling_2d import Pooling2D
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import NdArray, ShapeSpec, VariableOrArray


class AveragePooling2D(Pooling2D, AveragePoolingND):
    """:class:`AveragePoolingND` over images ``(n, c, h, w)`` with the padding counted
    as zeros, and the attributes of :class:`Pooling2D` (``kh``, ``sy``, ...)."""

    def __init__(self, ksize: ShapeSpec, stride: ShapeSpec | None = None, pad: ShapeSpec = 0,
                 cover_all: bool = False) -> None:
        Pooling2D.__init__(self, ksize, stride, pad, cover_all)
        self.pad_value = 0


@guarded
def average_pooling_2d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                       pad: ShapeSpec = 0) -> Variable:
    """Spatial average pooling of images.

    Every mean divides by ``kh * kw``: padded pixels count as zeros (use
    :func:`~chainer.functions.average_pooling_nd` with ``pad_value=None`` to leave
    them out).

    Args:
        x: variable of shape ``(n, c, h, w)``, floating point.
        ksize: window size (int or pair).
        stride: window stride (int, pair, or None for ``ksize``).
        pad: padding on each side (int or pair).

    Returns:
        The output variable ``(n, c, out_h, out_w)`` (windows that fit, as with
        ``cover_all=False``).

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not a 4-dimensional
            floating-point array.
        TypeError, ValueError: for bad window arguments, or a window that does not
            fit the padded input (the message names the argument).

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.average_pooling_2d(x, ksize=2, stride=2)
        >>> print(y.array)
        [[[[ 2.5  4.5]
           [10.5 12.5]]]]
    """
    return AveragePooling2D(ksize, stride, pad, False).apply((x,))[0]


class AveragePooling2DGrad(AdjointNode):
    """The gradient of :class:`AveragePooling2D`, applied to ``(gy,)``: each output
    gradient spread evenly over its window.

    Args:
        apool2d: the :class:`AveragePooling2D` node of the forward pass (after its
            forward).
        in_shape: the input shape ``(n, c, h, w)`` (taken from ``apool2d`` when it ran).
    """

    def __init__(self, apool2d: AveragePooling2D,
                 in_shape: tuple[int, ...] | None = None) -> None:
        self.apool2d = apool2d
        self._given_shape = None if in_shape is None else tuple(in_shape)

    def input_shape(self, gy: NdArray) -> tuple[int, ...]:
        if self._given_shape is not None:
            return self._given_shape
        win = getattr(self.apool2d, '_win', None)
        if win is None:
            raise ValueError('AveragePooling2DGrad needs in_shape before its node has run')
        return tuple(gy.shape[:2]) + tuple(win.size)

    def primal(self) -> FunctionNode:
        p = self.apool2d
        return AveragePooling2D(p.ksize, p.stride, p.pad, p.cover_all)
