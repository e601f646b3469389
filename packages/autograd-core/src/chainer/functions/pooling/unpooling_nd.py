"""N-dimensional unpooling (and its 1-d, 3-d forms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.pooling import _windows
from chainer.functions.pooling.pooling_nd import PoolingND
from chainer.utils import conv, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.functions.pooling.upsampling_2d import Upsampling2D
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


def check_outsize(node: UnpoolingND | Upsampling2D, in_type: type_check.Expr) -> None:
    """Type-check that the pooling of an image of size ``node.outsize`` has the spatial
    size of ``in_type`` (for the inverse operations of pooling)."""
    if node.outsize is None:
        return
    for i, (o, k, s, p) in enumerate(zip(node.outsize, node.ksize, node.stride, node.pad)):
        type_check.expect(in_type.shape[2 + i] == conv.get_conv_outsize(
            o, k, s, p, node.cover_all))


def inverse_windows(node: UnpoolingND | Upsampling2D, x: VariableOrArray) -> _windows.Windows:
    """The pooling windows whose outputs are the pixels of ``x`` and whose image has
    the size ``node.outsize`` (by default the smallest that has ``x``'s windows).

    Raises:
        ValueError: when ``x`` does not have ``node.ndim`` spatial axes or that size
            is negative.
    """
    if x.ndim != 2 + node.ndim:
        raise ValueError(f"{node.label}: the input 'x' must have the shape (n, c) + "
                         f'{node.ndim} spatial axes, not {x.shape}')
    size = node.outsize
    if size is None:
        size = tuple(conv.get_deconv_outsize(n, k, s, p, node.cover_all) for n, k, s, p in
                     zip(x.shape[2:], node.ksize, node.stride, node.pad))
        if any(n < 0 for n in size):
            raise ValueError(f'{node.label}: the output size {size} computed from the '
                             f'input {x.shape[2:]}, ksize={node.ksize}, stride='
                             f'{node.stride} and pad={node.pad} is negative')
    return _windows.Windows(node.ksize, node.stride, node.pad, size, out=x.shape[2:],
                            label=node.label)


class UnpoolingND(PoolingND):
    """Spread each input element over its pooling window (adding where windows
    overlap): the adjoint of sum pooling.

    Args:
        ndim, ksize, stride, pad: see :class:`PoolingND`.
        outsize: the spatial size of the output (``ndim`` ints), or None for the
            smallest whose pooling has the input's size.
        cover_all: whether that pooling covers every element (see
            :func:`~chainer.utils.conv.get_conv_outsize`).
    """

    _type_check_cache_attrs = ('ndim', 'ksize', 'stride', 'pad', 'outsize', 'cover_all')
    _win: _windows.Windows

    def __init__(self, ndim: int, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None, cover_all: bool = True) -> None:
        PoolingND.__init__(self, ndim, ksize, stride, pad, cover_all)
        self.outsize = None if outsize is None else _windows.as_tuple(
            outsize, ndim, 'outsize', 0)

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        PoolingND.check_type_forward(self, in_types)
        check_outsize(self, in_types[0])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._win = w = inverse_windows(self, x)
        return w.spread(x),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return UnpoolingNDGrad(self).apply(grad_outputs)


class UnpoolingNDGrad(FunctionNode):
    """The gradient of unpooling: the sum of each window."""

    def __init__(self, unpool: UnpoolingND) -> None:
        self.unpool = unpool

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return self.unpool._win.sum(gy).astype(gy.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        u = self.unpool
        return UnpoolingND(u.ndim, u.ksize, u.stride, u.pad, u._win.size,
                           u.cover_all).apply(grad_outputs)


@guarded
def unpooling_nd(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None,
                 cover_all: bool = True) -> Variable:
    """Inverse of N-dimensional pooling: spread each element over its window.

    Each output element is the sum of the inputs whose windows hold it.

    Args:
        x: variable of shape ``(n, c, s_1, ..., s_d)``, floating point.
        ksize: window size (int, or ``d`` ints).
        stride: window stride (int, ``d`` ints, or None for ``ksize``).
        pad: padding on each side of the output (int, or ``d`` ints).
        outsize: the output's spatial size (``d`` ints); None for
            :func:`~chainer.utils.conv.get_deconv_outsize` of the input's. Pooling an
            image of this size must give the input's size.
        cover_all: whether that pooling covers every element (a smaller default
            output when True).

    Returns:
        The output variable ``(n, c) + outsize``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not floating point or
            ``outsize`` does not pool to its size.
        TypeError, ValueError: for bad window arguments or ``outsize``.
    """
    func = UnpoolingND(len(x.shape) - 2, ksize, stride, pad, outsize, cover_all)
    return func.apply((x,))[0]


@guarded
def unpooling_1d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None,
                 cover_all: bool = True) -> Variable:
    """1-dimensional :func:`unpooling_nd` of ``x`` of shape ``(n, c, w)``.

    Raises:
        ValueError: when ``x`` is not 3-dimensional.
    """
    _windows.check_spatial_ndim(x, 1)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)


@guarded
def unpooling_3d(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None,
                 cover_all: bool = True) -> Variable:
    """3-dimensional :func:`unpooling_nd` of ``x`` of shape ``(n, c, d, h, w)``.

    Raises:
        ValueError: when ``x`` is not 5-dimensional.
    """
    _windows.check_spatial_ndim(x, 3)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)
