"""Converters of chainer.functions' connections."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy
import onnx.helper
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.functions.connection.bilinear import BilinearFunction
    from chainer.functions.connection.convolution_nd import ConvolutionND
    from chainer.functions.connection.deconvolution_nd import DeconvolutionND
    from chainer.functions.connection.depthwise_convolution_2d import DepthwiseConvolution2D
    from chainer.functions.connection.embed_id import EmbedIDFunction
    from chainer.functions.connection.linear import LinearFunction
    from chainer.functions.connection.local_convolution_2d import LocalConvolution2DFunction
    from chainer.functions.connection.shift import Shift
    from chainer.types import DTypeSpec


def _bias(input_names: list[str], index: int) -> str | None:
    """The name of the optional input ``index`` (a bias), None when absent."""
    if len(input_names) > index and input_names[index]:
        return input_names[index]
    return None


def conv_pads(in_shape: Sequence[int], ksize: Sequence[int], stride: Sequence[int],
              pad: Sequence[int], dilate: Sequence[int], cover_all: bool) -> list[int]:
    """ONNX ``pads`` (all begins, then all ends) of a Chainer convolution or pooling
    window (of ``ksize``, ``stride``, ``pad`` and ``dilate`` over ``in_shape``).

    With ``cover_all`` Chainer adds ``stride - 1`` rows of padding at the end of each
    spatial axis, so that the last, partial window is kept; here the end padding is
    only what that extra window needs (never more than ``stride - 1``).
    """
    ends = list(pad)
    if cover_all:
        for i, (size, k, s, p, d) in enumerate(zip(in_shape, ksize, stride, pad, dilate)):
            dk = k + (k - 1) * (d - 1)
            out = (size + 2 * p - dk + s - 1) // s + 1
            ends[i] = max(p, (out - 1) * s + dk - size - p)
    return list(pad) + ends


def one_hot_conv(gb: onnx_helper.GraphBuilder, context: Context, x: str, dtype: DTypeSpec,
                 ksize: Sequence[int], taps: Sequence[Sequence[tuple[int, int]]],
                 strides: Sequence[int], pads: Sequence[int], dilations: Sequence[int],
                 output_names: list[str] | None = None) -> str:
    """A Conv of each channel (group = C) with one-hot kernels, copying pixels exactly
    (for finite inputs): channel ``c`` gives ``len(taps[c])`` outputs, output ``k`` the
    tap ``taps[c][k]`` of the ``ksize`` window. Returns the output's name."""
    per = len(taps[0])
    weight = numpy.zeros((len(taps) * per, 1) + tuple(ksize), dtype)
    for c, channel_taps in enumerate(taps):
        for k, (i, j) in enumerate(channel_taps):
            weight[c * per + k, 0, i, j] = 1
    inputs = [x, context.add_const(weight, 'one_hot')]
    attrs: dict[str, Any] = dict(kernel_shape=list(ksize), strides=list(strides),
                                 pads=list(pads), dilations=list(dilations), group=len(taps))
    if output_names is not None:
        gb.op_output_named('Conv', inputs, output_names, **attrs)
        return output_names[0]
    return gb.op('Conv', inputs, **attrs)


@support((7,))
def convert_Convolution2DFunction(func: ConvolutionND, opset_version: int,
                                  input_names: list[str],
                                  output_names: list[str],
                                  context: Context) -> tuple[NodeProto, ...]:
    """Convolution2DFunction (also ConvolutionND, DilatedConvolution2DFunction) -> Conv
    with strides, pads, dilations and group; ``cover_all`` as extra end padding."""
    x_shape = func.inputs[0].shape
    w_shape = func.inputs[1].shape
    ksize = w_shape[2:]
    pads = conv_pads(x_shape[2:], ksize, func.stride, func.pad, func.dilate, func.cover_all)
    inputs = input_names[:2]
    b = _bias(input_names, 2)
    if b is not None:
        inputs.append(b)
    gb = onnx_helper.GraphBuilder()
    gb.op_output_named('Conv', inputs, output_names, kernel_shape=list(ksize),
                       strides=list(func.stride), pads=pads, dilations=list(func.dilate),
                       group=getattr(func, 'groups', 1))
    return gb.nodes()


convert_ConvolutionND = convert_Convolution2DFunction
convert_DilatedConvolution2DFunction = convert_Convolution2DFunction


@support((7,))
def convert_DepthwiseConvolution2D(func: DepthwiseConvolution2D, opset_version: int,
                                   input_names: list[str],
                                   output_names: list[str],
                                   context: Context) -> tuple[NodeProto, ...]:
    """DepthwiseConvolution2D -> Conv with group = in_channels; the weight
    ``(multiplier, C, kh, kw)`` is transposed and reshaped to ``(C * multiplier, 1, kh,
    kw)`` in the graph (output channel ``c * multiplier + m``, as Chainer orders them)."""
    mult, channels, kh, kw = func.inputs[1].shape
    gb = onnx_helper.GraphBuilder()
    w_t = gb.op('Transpose', [input_names[1]], perm=[1, 0, 2, 3])
    shape = context.add_const(numpy.array([channels * mult, 1, kh, kw], numpy.int64), 'shape')
    w = gb.op('Reshape', [w_t, shape])
    inputs = [input_names[0], w]
    b = _bias(input_names, 2)
    if b is not None:
        inputs.append(b)
    pads = list(func.pad) * 2
    gb.op_output_named('Conv', inputs, output_names, kernel_shape=[kh, kw],
                       strides=list(func.stride), pads=pads,
                       dilations=list(getattr(func, 'dilate', (1, 1))), group=channels)
    return gb.nodes()


def deconv_pads(in_shape: Sequence[int], ksize: Sequence[int], stride: Sequence[int],
                pad: Sequence[int], dilate: Sequence[int],
                outsize: Sequence[int | None] | None) -> tuple[list[int], list[int]]:
    """ONNX ``pads`` and ``output_padding`` of a transposed convolution whose output
    spatial size is ``outsize`` (None entries: Chainer's default
    ``stride * (in - 1) + dk - 2 * pad``)."""
    ends, extra = [], []
    for i, (size, k, s, p, d) in enumerate(zip(in_shape, ksize, stride, pad, dilate)):
        dk = k + (k - 1) * (d - 1)
        full = s * (size - 1) + dk - p  # the output with only the begin padding removed
        given = outsize[i] if outsize is not None else None
        want = given if given is not None else full - p
        cut = full - want
        ends.append(max(cut, 0))
        extra.append(max(-cut, 0))
    return list(pad) + ends, extra


@support((7,))
def convert_Deconvolution2DFunction(func: DeconvolutionND, opset_version: int,
                                    input_names: list[str],
                                    output_names: list[str],
                                    context: Context) -> tuple[NodeProto, ...]:
    """Deconvolution2DFunction (also DeconvolutionND) -> ConvTranspose; ``outsize``
    larger than the default becomes ``output_padding`` (zeros past the last window)."""
    x_shape = func.inputs[0].shape
    ksize = func.inputs[1].shape[2:]
    dilate = getattr(func, 'dilate', (1,) * len(ksize))
    pads, extra = deconv_pads(x_shape[2:], ksize, func.stride, func.pad, dilate,
                              getattr(func, 'outsize', None))
    inputs = input_names[:2]
    b = _bias(input_names, 2)
    if b is not None:
        inputs.append(b)
    attrs: dict[str, Any] = {}
    if any(extra):
        attrs['output_padding'] = extra
    gb = onnx_helper.GraphBuilder()
    gb.op_output_named('ConvTranspose', inputs, output_names, kernel_shape=list(ksize),
                       strides=list(func.stride), pads=pads, dilations=list(dilate),
                       group=getattr(func, 'groups', 1), **attrs)
    return gb.nodes()


convert_DeconvolutionND = convert_Deconvolution2DFunction


@support((7,))
def convert_EmbedIDFunction(func: EmbedIDFunction, opset_version: int, input_names: list[str],
                            output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """EmbedIDFunction -> Gather on axis 0; with ``ignore_label`` the ids equal to it
    are sent (Equal, Cast, Mul, Add) to an appended zero row (Concat), as Chainer gives
    zero vectors for them."""
    x, w = input_names[0], input_names[1]
    gb = onnx_helper.GraphBuilder()
    if func.ignore_label is None:
        gb.op_output_named('Gather', [w, x], output_names, axis=0)
        return gb.nodes()
    n_vocab, n_units = func.inputs[1].shape
    id_dtype = func.inputs[0].dtype
    zero_row = context.add_const(numpy.zeros((1, n_units), func.inputs[1].dtype), 'zero_row')
    table = gb.op('Concat', [w, zero_row], axis=0)
    label = context.add_const(numpy.array(func.ignore_label, id_dtype), 'ignore_label')
    shift = context.add_const(numpy.array(n_vocab - func.ignore_label, id_dtype), 'shift')
    ignored = gb.op('Cast', [gb.op('Equal', [x, label])],
                    to=onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(id_dtype)))
    ids = gb.op('Add', [x, gb.op('Mul', [ignored, shift])])
    gb.op_output_named('Gather', [table, ids], output_names, axis=0)
    return gb.nodes()


@support((7, 11))
def convert_LinearFunction(func: LinearFunction, opset_version: int, input_names: list[str],
                           output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """LinearFunction (``x W^T + b``; ``n_batch_axes`` reshapes happen around it) -> Gemm
    with transB; without a bias before opset 11 (where Gemm's C is required) a zero
    scalar C."""
    x, w = input_names[0], input_names[1]
    b = _bias(input_names, 2)
    gb = onnx_helper.GraphBuilder()
    if b is None and opset_version < 11:
        b = context.add_const(numpy.zeros((), func.inputs[0].dtype), 'zero')
    inputs = [x, w] if b is None else [x, w, b]
    gb.op_output_named('Gemm', inputs, output_names, transB=1)
    return gb.nodes()


@support((7, 12))
def convert_BilinearFunction(func: BilinearFunction, opset_version: int, input_names: list[str],
                             output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """BilinearFunction ``y_l = e1_j e2_k W_jkl (+ e1 V1 + e2 V2 + b)``: the bilinear
    term by Einsum from opset 12, before it as MatMul of the flattened outer product
    ``e1 e2^T`` with W reshaped to ``(J * K, L)``; the linear terms by MatMul and Add."""
    n = func.inputs[0].shape[0]
    j, k, l = func.inputs[2].shape
    gb = onnx_helper.GraphBuilder()

    def reshaped(name: str, shape: tuple[int, ...], tag: str) -> str:
        return gb.op('Reshape', [name, context.add_const(numpy.array(shape, numpy.int64), tag)])

    e1 = reshaped(input_names[0], (n, j), 'e1_shape')
    e2 = reshaped(input_names[1], (n, k), 'e2_shape')
    if opset_version >= 12:
        y = gb.op('Einsum', [e1, e2, input_names[2]], equation='nj,nk,jkl->nl')
    else:
        outer = gb.op('Mul', [reshaped(e1, (n, j, 1), 'e1_col'),
                              reshaped(e2, (n, 1, k), 'e2_row')])
        y = gb.op('MatMul', [reshaped(outer, (n, j * k), 'outer_shape'),
                             reshaped(input_names[2], (j * k, l), 'w_shape')])
    if len(input_names) == 6:
        y = gb.op('Add', [y, gb.op('MatMul', [e1, input_names[3]])])
        y = gb.op('Add', [y, gb.op('MatMul', [e2, input_names[4]])])
        y = gb.op('Add', [y, input_names[5]])
    return gb.nodes(output_names)


@support((7,))
def convert_Shift(func: Shift, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Shift -> a Conv of each channel (group = C) whose one-hot kernel reads the pixel
    its group moves in (``y[i] = x[i - shift]``, zeros from the padding of the largest
    shift). Exact for finite inputs (a NaN or inf also reaches the kernel's other
    taps, through ``0 * x``)."""
    n, channels, h, w = func.inputs[0].shape
    moves = [(0, 0)] * channels
    for start, end, ky, kx in func.channel_shifts(channels):
        for c in range(start, end):
            moves[c] = (ky * func.dy, kx * func.dx)
    my = max(abs(m[0]) for m in moves)
    mx = max(abs(m[1]) for m in moves)
    gb = onnx_helper.GraphBuilder()
    one_hot_conv(gb, context, input_names[0], func.inputs[0].dtype, (2 * my + 1, 2 * mx + 1),
                 [[(my - sy, mx - sx)] for sy, sx in moves], (1, 1), (my, mx, my, mx), (1, 1),
                 output_names)
    return gb.nodes()


@support((7,))
def convert_LocalConvolution2DFunction(func: LocalConvolution2DFunction, opset_version: int,
                                       input_names: list[str],
                                       output_names: list[str],
                                       context: Context) -> tuple[NodeProto, ...]:
    """LocalConvolution2DFunction (a weight ``(o, oh, ow, c, kh, kw)`` per output
    position) -> the patches by a one-hot Conv (as Im2Col), Reshape and Transpose to
    ``(oh * ow, n, c * kh * kw)``, MatMul with the weight as ``(oh * ow, c * kh * kw,
    o)``, Transpose and Reshape to ``(n, o, oh, ow)``, Add of the bias."""
    n, c = func.inputs[0].shape[:2]
    o, oh, ow, _, kh, kw = func.inputs[1].shape
    k, p = c * kh * kw, oh * ow
    gb = onnx_helper.GraphBuilder()

    def reshape(x: str, shape: Sequence[int], tag: str) -> str:
        return gb.op('Reshape', [x, context.add_const(numpy.array(shape, numpy.int64), tag)])

    taps = [(i, j) for i in range(kh) for j in range(kw)]
    col = one_hot_conv(gb, context, input_names[0], func.inputs[0].dtype, (kh, kw),
                       [taps] * c, func.stride, (0, 0, 0, 0), (1, 1))
    col = gb.op('Transpose', [reshape(col, (-1, k, p), 'col_shape')], perm=[2, 0, 1])
    w = gb.op('Transpose', [reshape(input_names[1], (o, p, k), 'w_shape')], perm=[1, 2, 0])
    y = gb.op('Transpose', [gb.op('MatMul', [col, w])], perm=[1, 2, 0])
    b = _bias(input_names, 2)
    if b is None:
        gb.op_output_named('Reshape', [y, context.add_const(
            numpy.array((-1, o, oh, ow), numpy.int64), 'y_shape')], output_names)
        return gb.nodes()
    y = reshape(y, (-1, o, oh, ow), 'y_shape')
    gb.op_output_named('Add', [y, b], output_names)
    return gb.nodes()
