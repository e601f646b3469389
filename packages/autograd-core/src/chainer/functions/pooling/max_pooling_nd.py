"""N-dimensional max pooling (and its 1-d, 3-d forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.pooling import _windows
from chainer.functions.pooling import max_pooling_2d as _max_pooling_2d  # see __getattr__
from chainer.functions.pooling.pooling_nd import PoolingND
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray

# the output, or the output and the argmax offsets (return_indices)
Pooled = Variable | tuple[Variable, 'NdArray']


class MaxPoolingND(PoolingND):
    """The maximum of each window, remembering its position for the backward.

    Args:
        ndim, ksize, stride, pad, cover_all: see :class:`PoolingND`.
        return_indices: whether :func:`max_pooling_nd` also returns :attr:`indexes`.
    """

    _win: _windows.Windows
    _rel: Any  # where the maxima are (see Windows.max); None until needed
    _x: Any  # the input, while _rel is still to be found

    def __init__(self, ndim: int, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 cover_all: bool = True, return_indices: bool = False) -> None:
        PoolingND.__init__(self, ndim, ksize, stride, pad, cover_all)
        self.return_indices = return_indices

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._win = w = self._pool_windows(x)
        if not self.return_indices and not config.enable_backprop:
            # no graph, so no backward: the maxima alone (several times faster); the
            # locations are found only if asked for (``indexes``)
            self._rel, self._x = None, x
            return w.max_values(x),
        y, self._rel = w.max(x)
        self._x = None
        return y,

    def _locations(self) -> Any:
        if self._rel is None:
            self._rel = self._win.max(self._x)[1]
            self._x = None
        return self._rel

    @property
    def indexes(self) -> NdArray:
        """The offset of each output's maximum within its window, row-major over the
        window (an int64 array shaped like the output; set by the forward)."""
        return self._win.window_index(self._locations())

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return MaxPoolingNDGrad(self).apply(grad_outputs)

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[Any, ...] | None,
                        grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        return self._win.scatter(grad_outputs[0], self._locations()),


class MaxPoolingNDGrad(FunctionNode):
    """The gradient of max pooling: each output gradient goes to its window's maximum."""

    def __init__(self, mpool: MaxPoolingND) -> None:
        self.mpool = mpool

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return self.mpool._win.scatter(gy, self.mpool._locations()),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return MaxPoolingNDWithIndexes(self.mpool).apply(grad_outputs)


class MaxPoolingNDWithIndexes(FunctionNode):
    """Read each window at the position of a previous max pooling's maximum."""

    def __init__(self, mpool: MaxPoolingND) -> None:
        self.mpool = mpool

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return self.mpool._win.gather(x, self.mpool._locations()),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return MaxPoolingNDGrad(self.mpool).apply(grad_outputs)


def _apply(func: MaxPoolingND, x: VariableOrArray) -> Pooled:
    y = func.apply((x,))[0]
    if func.return_indices:
        return y, func.indexes
    return y


@guarded
def max_pooling_nd(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                   pad: ShapeSpec = 0,
                   cover_all: bool = True, return_indices: bool = False) -> Pooled:
    """N-dimensional spatial max pooling.

    Args:
        x: variable of shape ``(n, c, s_1, ..., s_d)``, floating point.
        ksize: window size (int, or ``d`` ints).
        stride: window stride (int, ``d`` ints, or None for ``ksize``).
        pad: padding on each side (int, or ``d`` ints); it never wins the maximum.
        cover_all: add windows so that every input element is pooled (the output
            may be larger).
        return_indices: also return the position of each maximum in its window.

    Returns:
        The output variable, or ``(y, indexes)`` when ``return_indices``: ``indexes``
        (an int64 array of the output's shape, on ``x``'s device) holds the row-major
        offset of each maximum within its window, as
        :func:`~chainer.functions.upsampling_2d` expects.

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not floating point.
        TypeError, ValueError: for bad window arguments, or a window that does not fit
            the padded input (the message names the argument).
    """
    return _apply(MaxPoolingND(len(x.shape) - 2, ksize, stride, pad, cover_all,
                               return_indices), x)


@guarded
def max_pooling_1d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                   pad: ShapeSpec = 0,
                   cover_all: bool = True, return_indices: bool = False) -> Pooled:
    """1-dimensional :func:`max_pooling_nd` of ``x`` of shape ``(n, c, w)``.

    Raises:
        ValueError: when ``x`` is not 3-dimensional.
    """
    _windows.check_spatial_ndim(x, 1)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


@guarded
def max_pooling_3d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                   pad: ShapeSpec = 0,
                   cover_all: bool = True, return_indices: bool = False) -> Pooled:
    """3-dimensional :func:`max_pooling_nd` of ``x`` of shape ``(n, c, d, h, w)``.

    Raises:
        ValueError: when ``x`` is not 5-dimensional.
    """
    _windows.check_spatial_ndim(x, 3)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def __getattr__(name: str) -> Any:
    # Chainer 7.8.1 defines max_pooling_2d here; it lives in max_pooling_2d.py, whose
    # MaxPooling2D subclasses MaxPoolingND: max_pooling_2d starts loading first and imports
    # this module, which binds it as a module object (complete when the alias is read)
    if name == 'max_pooling_2d':
        return _max_pooling_2d.max_pooling_2d
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')

