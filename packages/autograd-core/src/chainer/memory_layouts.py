"""Names of v7's memory layouts (``chainer.memory_layouts``).

Chainer v7 could keep convolution inputs and weights channel-last for cuDNN
(``compute_mode='cudnn_fast'``). This project keeps every array in the standard
(channel-first) layout; the names exist so that v7 code importing them runs, and
a variable's ``layout`` is always None. The shape helpers and :class:`AsLayout` convert
between the channel-first and channel-last orders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.function_node import FunctionNode

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray

CUDNN_CHANNEL_FIRST_X = 'CUDNN_CHANNEL_FIRST_X'
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = 'CUDNN_CHANNEL_FIRST_W'
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

__all__ = ['CUDNN_CHANNEL_FIRST_W', 'CUDNN_CHANNEL_FIRST_X', 'CUDNN_CHANNEL_LAST_W',
           'CUDNN_CHANNEL_LAST_X', 'AsLayout', 'get_raw_shape', 'get_semantic_shape']


# The layouts that keep the channel axis last in memory; the others are channel-first.
_CHANNEL_LAST = (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


class _Unspecified:
    """The 'no layout given' marker (distinct from None, the standard layout)."""

    def __repr__(self) -> str:
        return '<unspecified layout>'


_unspecified = _Unspecified()


def _check_layout(layout: Any) -> None:
    if layout is not None and layout not in (CUDNN_CHANNEL_FIRST_X, CUDNN_CHANNEL_FIRST_W,
                                             *_CHANNEL_LAST):
        raise ValueError(f'unknown memory layout: {layout!r}')


def _get_layout_transpose_axes(ndim: int, layout: Any, inverse: bool = False
                               ) -> tuple[int, ...] | None:
    """Axes taking a semantic (channel-first) array of ``ndim`` axes to ``layout``.

    None when no transposition is needed; ``inverse`` gives the axes back from the raw
    layout to the semantic one.
    """
    _check_layout(layout)
    if layout not in _CHANNEL_LAST:
        return None
    if ndim < 2:
        raise ValueError(f'a channel-last layout needs at least 2 axes, not {ndim}')
    if inverse:
        return (0, ndim - 1) + tuple(range(1, ndim - 1))
    return (0,) + tuple(range(2, ndim)) + (1,)


def _transpose_shape(shape: tuple[int, ...], src_layout: Any, dst_layout: Any
                     ) -> tuple[int, ...]:
    """``shape`` in ``src_layout`` seen in ``dst_layout``."""
    shape = tuple(shape)
    back = _get_layout_transpose_axes(len(shape), src_layout, inverse=True)
    if back is not None:
        shape = tuple(shape[i] for i in back)
    axes = _get_layout_transpose_axes(len(shape), dst_layout)
    if axes is not None:
        shape = tuple(shape[i] for i in axes)
    return shape


def _transpose_array(array: Any, src_layout: Any, dst_layout: Any) -> Any:
    """``array`` (in ``src_layout``) transposed to ``dst_layout`` (a view where possible)."""
    back = _get_layout_transpose_axes(array.ndim, src_layout, inverse=True)
    if back is not None:
        array = array.transpose(back)
    axes = _get_layout_transpose_axes(array.ndim, dst_layout)
    if axes is not None:
        array = array.transpose(axes)
    return array


def get_raw_shape(arr_or_var: VariableOrArray) -> tuple[int, ...]:
    """The shape of the array in memory (of a Variable: of its ``raw_array``).

    Every Variable of this project is in the standard layout, so this is its shape.
    """
    array: Any = getattr(arr_or_var, 'raw_array', None)
    if array is None:
        array = getattr(arr_or_var, 'array', arr_or_var)
    return tuple(array.shape)


def get_semantic_shape(arr_or_var: VariableOrArray,
                       assumed_layout: str | None | _Unspecified = _unspecified
                       ) -> tuple[int, ...]:
    """The channel-first shape of an array or Variable.

    Args:
        arr_or_var: an array or a Variable.
        assumed_layout: the layout of an array's memory (a Variable's own ``layout``,
            always None here, when not given).
    """
    if isinstance(assumed_layout, _Unspecified):
        assumed_layout = getattr(arr_or_var, 'layout', None)
    return _transpose_shape(get_raw_shape(arr_or_var), assumed_layout, None)


class AsLayout(FunctionNode):
    """Puts a channel-first array into the memory ``layout`` (differentiable).

    For a channel-last layout the output is the input transposed so that the channel
    axis comes last (its gradient transposed back); for a channel-first layout or None
    it is the input. Chainer v7 tagged the output Variable with the layout; here every
    Variable is in the standard layout (``layout`` None), and the output holds the
    transposed array.

    Args:
        layout: one of this module's layouts, or None.

    Raises:
        ValueError: for an unknown layout.
    """

    def __init__(self, layout: str | None) -> None:
        _check_layout(layout)
        self.layout = layout

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return _transpose_array(x, None, self.layout),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        return _FromLayout(self.layout).apply((gy,))


class _FromLayout(FunctionNode):
    """The inverse of :class:`AsLayout` (its backward)."""

    def __init__(self, layout: Any) -> None:
        self.layout = layout

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return _transpose_array(x, self.layout, None),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return AsLayout(self.layout).apply(grad_outputs)
