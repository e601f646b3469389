"""The base of the N-dimensional pooling functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.function_node import FunctionNode
from chainer.functions._util import expect_float
from chainer.functions.pooling import _windows
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import ShapeSpec


class PoolingND(FunctionNode):
    """Base of the pooling functions over ``ndim`` spatial axes.

    Args:
        ndim: the number of spatial axes (the input is ``(n, c, s_1, ..., s_ndim)``).
        ksize: window size (int, or ``ndim`` ints).
        stride: window stride (int, ``ndim`` ints, or None for ``ksize``).
        pad: padding on each side (int, or ``ndim`` ints).
        cover_all: add windows so that every input element is pooled.

    Attributes:
        ksize, stride, pad: the geometry as ``ndim``-tuples of ints.

    Raises:
        TypeError, ValueError: for a bad ``ndim``, ``ksize``, ``stride`` or ``pad``
            (the message names it).
    """

    _type_check_cache_attrs: tuple[str, ...] | None = ('ndim',)

    def __init__(self, ndim: int, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 cover_all: bool = True) -> None:
        if ndim <= 0:
            raise ValueError('pooling requires at least one spatial dimension: the input '
                             "'x' must have the shape (n, c, s_1, ..., s_d) with d >= 1")
        self.ndim = ndim
        self.ksize, self.stride, self.pad = _windows.geometry(ndim, ksize, stride, pad)
        self.cover_all = bool(cover_all)

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, None)  # unnamed (in_types[0]), as in v7
        type_check.expect(in_types[0].ndim == 2 + self.ndim)

    def _pool_windows(self, x: Any) -> _windows.Windows:
        """The windows of this pooling over the image ``x``.

        Raises:
            ValueError: when ``x`` does not have ``ndim`` spatial axes (the type check
                says so first, unless ``chainer.config.type_check`` is off).
        """
        if x.ndim != 2 + self.ndim:
            raise ValueError(f"{self.label}: the input 'x' must have the shape (n, c) + "
                             f'{self.ndim} spatial axes, not {x.shape}')
        return _windows.Windows(self.ksize, self.stride, self.pad, x.shape[2:],
                                cover_all=self.cover_all, label=self.label)


_PoolingND = PoolingND  # the name of Chainer 7.8.1
