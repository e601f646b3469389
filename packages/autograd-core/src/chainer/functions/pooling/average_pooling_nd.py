"""N-dimensional average pooling (and its 1-d, 3-d forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.pooling import _windows
from chainer.functions.pooling.pooling_nd import PoolingND
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


def _check_pad_value(pad_value: Any) -> Any:
    if pad_value is not None and not (isinstance(pad_value, (int, float))
                                      and not isinstance(pad_value, bool)
                                      and pad_value == 0):
        raise ValueError(f'pad_value must be either 0 or None, not {pad_value!r}')
    return pad_value


class AveragePoolingND(PoolingND):
    """The mean of each window.

    Args:
        ndim, ksize, stride, pad, cover_all: see :class:`PoolingND`.
        pad_value: 0 to count the padding as zeros (every mean divides by the window
            volume), None to leave it out (each mean divides by its number of input
            elements).

    Raises:
        ValueError: when ``pad_value`` is neither 0 nor None.
    """

    _win: _windows.Windows

    def __init__(self, ndim: int, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 cover_all: bool = False, pad_value: float | None = 0) -> None:
        PoolingND.__init__(self, ndim, ksize, stride, pad, cover_all)
        self.pad_value = _check_pad_value(pad_value)

    def _divide(self, a: Any, dtype: Any) -> Any:
        """``a`` (output-shaped) divided by the window sizes, as ``dtype``."""
        if self.pad_value is None:
            a = a / self._win.counts(backend.get_array_module(a), a.dtype)
        else:
            a = a * (1.0 / self._win.volume)
        return a.astype(dtype, copy=False)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._win = w = self._pool_windows(x)
        return self._divide(w.sum(x), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return AveragePoolingNDGrad(self).apply(grad_outputs)


class AveragePoolingNDGrad(FunctionNode):
    """The gradient of average pooling: each output gradient, divided by its window
    size, spread over its window."""

    def __init__(self, apool: AveragePoolingND) -> None:
        self.apool = apool

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return self.apool._win.spread(self.apool._divide(gy, gy.dtype)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        p = self.apool
        return AveragePoolingND(p.ndim, p.ksize, p.stride, p.pad, p.cover_all,
                                p.pad_value).apply(grad_outputs)


@guarded
def average_pooling_nd(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                       pad: ShapeSpec = 0,
                       pad_value: float | None = 0) -> Variable:
    """N-dimensional spatial average pooling.

    Args:
        x: variable of shape ``(n, c, s_1, ..., s_d)``, floating point.
        ksize: window size (int, or ``d`` ints).
        stride: window stride (int, ``d`` ints, or None for ``ksize``).
        pad: padding on each side (int, or ``d`` ints).
        pad_value: 0 (the padding counts as zeros, so means near the border are biased
            towards zero) or None (the padding is left out of the means).

    Returns:
        The output variable ``(n, c, o_1, ..., o_d)`` (windows that fit, as with
        ``cover_all=False``).

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not floating point.
        TypeError, ValueError: for bad window arguments or ``pad_value``, or a window
            that does not fit the padded input (the message names the argument).
    """
    func = AveragePoolingND(len(x.shape) - 2, ksize, stride, pad, False, pad_value)
    return func.apply((x,))[0]


@guarded
def average_pooling_1d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                       pad: ShapeSpec = 0,
                       pad_value: float | None = 0) -> Variable:
    """1-dimensional :func:`average_pooling_nd` of ``x`` of shape ``(n, c, w)``.

    Raises:
        ValueError: when ``x`` is not 3-dimensional.
    """
    _windows.check_spatial_ndim(x, 1)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


@guarded
def average_pooling_3d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                       pad: ShapeSpec = 0,
                       pad_value: float | None = 0) -> Variable:
    """3-dimensional :func:`average_pooling_nd` of ``x`` of shape ``(n, c, d, h, w)``.

    Raises:
        ValueError: when ``x`` is not 5-dimensional.
    """
    _windows.check_spatial_ndim(x, 3)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
