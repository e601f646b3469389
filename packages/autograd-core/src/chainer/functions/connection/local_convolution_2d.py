"""Two-dimensional locally-connected layer (``local_convolution_2d``).

A convolution whose filters differ at every output position (no weight
sharing), computed as one batched matrix product over the output positions
with the image patches. The gradient nodes close the set under
differentiation, as for the linear layer: ``F(x, W)`` is bilinear,
``GradData(W, gy)`` and ``GradW(x, gy)`` are its adjoints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.connection import _conv_core
from chainer.functions.connection.convolution_nd import conv_params
from chainer.functions.math.sum import sum as _sum
from chainer.utils import conv, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import (
        DTypeSpec,
        GradInputs,
        GradOutputs,
        NdArray,
        ShapeSpec,
        VariableOrArray,
    )


def _patches(x: Any, ksize: tuple[int, ...], stride: tuple[int, ...],
             out_hw: tuple[int, ...], dtype: Any) -> Any:
    # (positions, n, c * kh * kw), C-contiguous
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    col = conv.im2col_nd(x, ksize, stride, 0, out_size=out_hw)
    col = col.transpose(4, 5, 0, 1, 2, 3)
    p = out_hw[0] * out_hw[1]
    return xp.ascontiguousarray(col, dtype=dtype).reshape(p, n, c * ksize[0] * ksize[1])


def _positions(W: Any, dtype: Any) -> Any:
    # (o, oh, ow, c, kh, kw) -> (positions, o, c * kh * kw)
    o, oh, ow = W.shape[:3]
    return W.transpose(1, 2, 0, 3, 4, 5).reshape(oh * ow, o, -1).astype(dtype, copy=False)


def _forward(x: Any, W: Any, stride: tuple[int, ...]) -> Any:
    xp = backend.get_array_module(x, W)
    ct = _conv_core.compute_dtype(x.dtype, W.dtype)
    o, oh, ow = W.shape[:3]
    col = _patches(x, W.shape[4:], stride, (oh, ow), ct)
    y = xp.matmul(col, _positions(W, ct).transpose(0, 2, 1))  # (p, n, o)
    return y.transpose(1, 2, 0).reshape(x.shape[0], o, oh, ow).astype(x.dtype)


def _grad_data(W: Any, gy: Any, stride: tuple[int, ...], hw: tuple[int, ...]) -> Any:
    xp = backend.get_array_module(W, gy)
    ct = _conv_core.compute_dtype(W.dtype, gy.dtype)
    n = gy.shape[0]
    o, oh, ow, c, kh, kw = W.shape
    gy_p = gy.reshape(n, o, oh * ow).transpose(2, 0, 1).astype(ct, copy=False)
    gcol = xp.matmul(gy_p, _positions(W, ct))  # (p, n, c * kh * kw)
    gcol = gcol.reshape(oh, ow, n, c, kh, kw).transpose(2, 3, 4, 5, 0, 1)
    return conv.col2im_nd(gcol, stride, 0, hw).astype(gy.dtype, copy=False)


def _grad_w(x: Any, gy: Any, stride: tuple[int, ...], ksize: tuple[int, ...],
            dtype: Any) -> Any:
    xp = backend.get_array_module(x, gy)
    ct = _conv_core.compute_dtype(x.dtype, gy.dtype)
    n, o, oh, ow = gy.shape
    col = _patches(x, ksize, stride, (oh, ow), ct)
    gy_p = gy.reshape(n, o, oh * ow).transpose(2, 1, 0).astype(ct, copy=False)
    gW = xp.matmul(gy_p, col)  # (p, o, c * kh * kw)
    gW = gW.reshape(oh, ow, o, x.shape[1], *ksize).transpose(2, 0, 1, 3, 4, 5)
    return gW.astype(dtype, copy=False)


class LocalConvolution2DFunction(FunctionNode):
    """Locally-connected 2-D convolution: ``x`` (n, c, h, w), ``W`` (o, oh, ow, c, kh, kw)."""

    _type_check_cache_attrs = ('sy', 'sx')

    def __init__(self, stride: ShapeSpec = 1) -> None:
        self.stride = conv_params(2, stride, 0, 1, 1)[0]
        self.sy, self.sx = self.stride

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n_in = type_check.eval(in_types.size())
        if n_in not in (2, 3):
            raise type_check.InvalidType('2 or 3 arguments (x, W[, b])', f'{n_in} arguments')
        type_check.argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[0], in_types[1]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 4,
            w_type.ndim == 6,
            x_type.shape[1] == w_type.shape[3],
            w_type.shape[1] == (x_type.shape[2] - w_type.shape[4]) // self.sy + 1,
            w_type.shape[2] == (x_type.shape[3] - w_type.shape[5]) // self.sx + 1,
        )
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 3,
                b_type.shape[0] == w_type.shape[0],
                b_type.shape[1] == w_type.shape[1],
                b_type.shape[2] == w_type.shape[2],
            )

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        y = _forward(x, W, self.stride)
        if len(inputs) == 3:
            y += inputs[2].astype(y.dtype, copy=False)
        return y,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, W = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        ret: list[Any] = []
        if 0 in indexes:
            ret.append(LocalConvolution2DGradData(self.stride, x.shape[2:]).apply((W, gy))[0])
        if 1 in indexes:
            ret.append(LocalConvolution2DGradW(self.stride, W.shape[4:], W.dtype).apply(
                (x, gy))[0])
        if 2 in indexes:

            ret.append(_sum(gy, axis=0))
        return tuple(ret)


class LocalConvolution2DGradData(FunctionNode):
    """``(W, gy) -> gx``: the input gradient of a local convolution."""

    def __init__(self, stride: tuple[int, ...], hw: tuple[int, ...]) -> None:
        self.stride = stride
        self.hw = tuple(hw)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        W, gy = inputs
        return _grad_data(W, gy, self.stride, self.hw),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        W, gy = retained_inputs(self)
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LocalConvolution2DGradW(self.stride, W.shape[4:], W.dtype).apply(
                (ggx, gy))[0])
        if 1 in indexes:
            ret.append(LocalConvolution2DFunction(self.stride).apply((ggx, W))[0])
        return tuple(ret)


class LocalConvolution2DGradW(FunctionNode):
    """``(x, gy) -> gW``: the filter gradient of a local convolution."""

    def __init__(self, stride: tuple[int, ...], ksize: tuple[int, ...],
                 w_dtype: DTypeSpec) -> None:
        self.stride = stride
        self.ksize = tuple(ksize)
        self.W_dtype = w_dtype

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        x, gy = inputs
        return _grad_w(x, gy, self.stride, self.ksize, self.W_dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, gy = retained_inputs(self)
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LocalConvolution2DGradData(self.stride, x.shape[2:]).apply(
                (ggW, gy))[0])
        if 1 in indexes:
            ret.append(LocalConvolution2DFunction(self.stride).apply((x, ggW))[0])
        return tuple(ret)


@guarded
def local_convolution_2d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                         stride: ShapeSpec = 1) -> Variable:
    """Two-dimensional locally-connected layer (unshared convolution).

    ``y[n, o, i, j] = sum_{c, p, q} W[o, i, j, c, p, q] x[n, c, i s_y + p, j s_x + q]
    + b[o, i, j]``: like a convolution without padding, but with a separate
    filter at each output position.

    Args:
        x: input of shape ``(n, c_I, h, w)``.
        W: filters of shape ``(c_O, h_O, w_O, c_I, k_H, k_W)`` with
            ``h_O = (h - k_H) // s_y + 1`` and ``w_O = (w - k_W) // s_x + 1``.
        b: bias of shape ``(c_O, h_O, w_O)`` or None.
        stride: int or pair ``(s_y, s_x)``.

    Returns:
        Output of shape ``(n, c_O, h_O, w_O)``, of ``x``'s dtype.

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks, channel counts,
            or a ``W`` whose output size does not match ``x``, the kernel and ``stride``.
        ValueError: for a bad ``stride``.
    """
    args = (x, W) if b is None else (x, W, b)
    return LocalConvolution2DFunction(stride).apply(args)[0]
