"""Upsampling with the indexes of a max pooling."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.pooling import _windows
from chainer.functions.pooling.pooling_2d import Pooling2D
from chainer.functions.pooling.unpooling_nd import check_outsize, inverse_windows
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


class Upsampling2D(Pooling2D):
    """Put each input pixel at the position, in its pooling window, that ``indexes``
    gives (the maximum of a preceding max pooling); zero elsewhere.

    Args:
        indexes: int array shaped like the input: offsets ``ky * kw + kx``.
        ksize, stride, pad, cover_all: the preceding pooling's (see :class:`Pooling2D`).
        outsize: the output size ``(h, w)``, or None for the smallest whose pooling
            has the input's size.
    """

    _type_check_cache_attrs = None
    _win: _windows.Windows
    _rel: Any  # the locations that indexes name (see Windows.max)

    def __init__(self, indexes: NdArray, ksize: ShapeSpec, stride: ShapeSpec | None = None,
                 pad: ShapeSpec = 0,
                 outsize: ShapeSpec | None = None, cover_all: bool = True) -> None:
        Pooling2D.__init__(self, ksize, stride, pad, cover_all)
        self.indexes = indexes
        self.outsize = None if outsize is None else _windows.as_tuple(
            outsize, 2, 'outsize', 0)

    outh = property(lambda self: None if self.outsize is None else self.outsize[0],
                    doc='The output height given, or None.')
    outw = property(lambda self: None if self.outsize is None else self.outsize[1],
                    doc='The output width given, or None.')

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        Pooling2D.check_type_forward(self, in_types)
        x_type = in_types[0]
        type_check.expect(x_type.shape == tuple(self.indexes.shape))
        check_outsize(self, x_type)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._win = w = inverse_windows(self, x)
        self._rel = w.relative(self.indexes)
        return w.scatter(x, self._rel),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(FunctionNode):
    """The gradient of upsampling: each window read at its index."""

    def __init__(self, upsample: Upsampling2D) -> None:
        self.upsample = upsample

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return self.upsample._win.gather(gy, self.upsample._rel),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        u = self.upsample
        return Upsampling2D(u.indexes, u.ksize, u.stride, u.pad, u._win.size,
                            u.cover_all).apply(grad_outputs)


@guarded
def upsampling_2d(x: VariableOrArray, indexes: NdArray, ksize: ShapeSpec,
                  stride: ShapeSpec | None = None, pad: ShapeSpec = 0,
                  outsize: ShapeSpec | None = None, cover_all: bool = True) -> Variable:
    """Upsample with the indexes of a max pooling (the inverse of its selection).

    Each pixel of ``x`` goes to the position of its window that ``indexes`` names,
    and the rest of the output is zero (where windows overlap, values add up).

    Args:
        x: variable of shape ``(n, c, h, w)``, floating point (a pooled image).
        indexes: the indexes returned by
            ``max_pooling_2d(..., return_indices=True)``: ints of ``x``'s shape.
        ksize, stride, pad, cover_all: the arguments of that max pooling.
        outsize: the output size ``(out_h, out_w)`` (usually the pooled image's);
            None for :func:`~chainer.utils.conv.get_deconv_outsize` of ``(h, w)``.

    Returns:
        The output variable ``(n, c, out_h, out_w)``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not a 4-dimensional
            floating-point array of ``indexes``' shape, or ``outsize`` does not pool
            to ``(h, w)``.
        TypeError, ValueError: for bad window arguments or ``outsize``.
    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize, cover_all).apply((x,))[0]
