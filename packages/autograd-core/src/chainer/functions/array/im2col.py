"""Image patches as channels (im2col)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.utils import conv, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


def _pair(value: Any, name: str) -> tuple[int, int]:
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f'{name} must be an int or a pair of ints, not {value!r}')
        return int(value[0]), int(value[1])
    return int(value), int(value)


class Im2Col(FunctionNode):
    """``(n, c, h, w) -> (n, c * kh * kw, out_h, out_w)``."""

    def __init__(self, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec, cover_all: bool,
                 dilate: ShapeSpec) -> None:
        self.kh, self.kw = _pair(ksize, 'ksize')
        self.sy, self.sx = _pair(stride, 'stride')
        self.ph, self.pw = _pair(pad, 'pad')
        self.dy, self.dx = _pair(dilate, 'dilate')
        self.cover_all = cover_all
        if min(self.kh, self.kw, self.sy, self.sx, self.dy, self.dx) <= 0:
            raise ValueError('ksize, stride and dilate must be positive')
        if min(self.ph, self.pw) < 0:
            raise ValueError('pad must be non-negative')

    @property
    def label(self) -> str:
        return 'Im2Col'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim == 4)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        n, c, h, w = x.shape
        self._in_hw = (h, w)
        col = conv.im2col(x, self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
                          cover_all=self.cover_all, dy=self.dy, dx=self.dx)
        out_h, out_w = col.shape[4:]
        return col.reshape(n, c * self.kh * self.kw, out_h, out_w),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return Col2Im(self, self._in_hw).apply(grad_outputs)


class Col2Im(FunctionNode):
    """Sum patches back into an image (the adjoint of Im2Col)."""

    def __init__(self, im2col: Im2Col, hw: tuple[int, int]) -> None:
        self.p = im2col
        self.hw = hw

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        p = self.p
        n, _, out_h, out_w = gy.shape
        col = gy.reshape(n, -1, p.kh, p.kw, out_h, out_w)
        h, w = self.hw
        return conv.col2im(col, p.sy, p.sx, p.ph, p.pw, h, w, p.dy, p.dx),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        p = self.p
        return Im2Col((p.kh, p.kw), (p.sy, p.sx), (p.ph, p.pw), p.cover_all,
                      (p.dy, p.dx)).apply(grad_outputs)


class Im2ColGrad(Col2Im):
    """The gradient of :class:`Im2Col` (col2im), applied to ``(gy,)``.

    Args:
        ksize, stride, pad, cover_all, dilate: the arguments of the im2col.
        in_shape: the shape ``(n, c, h, w)`` of the im2col's input.
    """

    def __init__(self, ksize: ShapeSpec, stride: ShapeSpec, pad: ShapeSpec, cover_all: bool,
                 dilate: ShapeSpec, in_shape: tuple[int, ...]) -> None:
        super().__init__(Im2Col(ksize, stride, pad, cover_all, dilate),
                         (int(in_shape[2]), int(in_shape[3])))
        self.in_shape = tuple(in_shape)

    @property
    def label(self) -> str:
        return 'Im2ColGrad'


@guarded
def im2col(x: VariableOrArray, ksize: ShapeSpec, stride: ShapeSpec = 1, pad: ShapeSpec = 0,
           cover_all: bool = False, dilate: ShapeSpec = 1) -> Variable:
    """Extract the patches of images that a filter visits.

    Args:
        x: variable of shape ``(n, c, h, w)``.
        ksize: filter size (int or pair ``(kh, kw)``).
        stride: stride of the filter (int or pair).
        pad: zero padding on each side (int or pair).
        cover_all: add windows so that every pixel is covered (see
            :func:`chainer.utils.get_conv_outsize`).
        dilate: dilation of the filter (int or pair).

    Returns:
        A variable of shape ``(n, c * kh * kw, out_h, out_w)``; channel
        ``(ci * kh + i) * kw + j`` holds ``x[:, ci, oh * sy + i * dy - ph,
        ow * sx + j * dx - pw]`` (zero outside the image).

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not 4-D.
        ValueError: for a filter that does not fit, or non-positive sizes.
    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
