"""Converters of chainer.functions.pooling."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy
import onnx
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context
from onnx_chainer.functions.activation import reduce_op, reshape_to
from onnx_chainer.functions.connection import conv_pads, deconv_pads
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.functions.pooling.average_pooling_nd import AveragePoolingND
    from chainer.functions.pooling.max_pooling_nd import MaxPoolingND
    from chainer.functions.pooling.roi_average_align_2d import ROIAverageAlign2D
    from chainer.functions.pooling.roi_average_pooling_2d import ROIAveragePooling2D
    from chainer.functions.pooling.roi_max_pooling_2d import ROIMaxPooling2D
    from chainer.functions.pooling.roi_pooling_2d import ROIPooling2D
    from chainer.functions.pooling.unpooling_nd import UnpoolingND


def _spatial(func: FunctionNode) -> tuple[int, ...]:
    return tuple(func.inputs[0].shape[2:])


def _pool_pads(func: AveragePoolingND | MaxPoolingND) -> list[int]:
    """ONNX ``pads`` of a pooling window (no dilation)."""
    ksize = func.ksize
    return conv_pads(_spatial(func), ksize, func.stride, func.pad, (1,) * len(ksize),
                     func.cover_all)


@support((7,))
def convert_AveragePooling2D(func: AveragePoolingND, opset_version: int, input_names: list[str],
                             output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """AveragePooling2D (also AveragePoolingND) -> AveragePool. Chainer's padding of
    zeros counts in each mean (``count_include_pad=1``) unless ``pad_value`` is None;
    ``cover_all`` is extra end padding, counted the same way."""
    pads = _pool_pads(func)
    include = 0 if getattr(func, 'pad_value', 0) is None else 1
    return onnx_helper.make_node('AveragePool', input_names, output_names,
                                 kernel_shape=list(func.ksize), strides=list(func.stride),
                                 pads=pads, count_include_pad=include),


convert_AveragePoolingND = convert_AveragePooling2D


@support((7, 10))
def convert_MaxPooling2D(func: MaxPoolingND, opset_version: int, input_names: list[str],
                         output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """MaxPooling2D (also MaxPoolingND) -> MaxPool. ``cover_all`` (Chainer's default)
    keeps the last partial window: ``ceil_mode`` from opset 10, before it the end
    padding that window needs (the same output)."""
    pads = _pool_pads(func)
    plain = list(func.pad) * 2
    attrs: dict[str, Any] = {}
    if opset_version >= 10 and pads != plain:
        pads = plain
        attrs['ceil_mode'] = 1
    return onnx_helper.make_node('MaxPool', input_names, output_names[:1],
                                 kernel_shape=list(func.ksize), strides=list(func.stride),
                                 pads=pads, **attrs),


convert_MaxPoolingND = convert_MaxPooling2D


@support((7,))
def convert_ROIPooling2D(func: ROIPooling2D, opset_version: int, input_names: list[str],
                         output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ROIPooling2D -> MaxRoiPool (``pooled_shape``, ``spatial_scale``); rois are
    ``(batch_index, x_min, y_min, x_max, y_max)`` in both."""
    warnings.warn(
        'ROIPooling2D is exported as ONNX MaxRoiPool, which may round the region '
        'bounds differently and gives 0 rather than the maximum for empty bins; '
        'results can differ from Chainer, notably for negative inputs', UserWarning)
    return onnx_helper.make_node('MaxRoiPool', input_names, output_names,
                                 pooled_shape=[func.outh, func.outw],
                                 spatial_scale=float(func.spatial_scale)),


@support((7,))
def convert_Unpooling2D(func: UnpoolingND, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Unpooling2D (also UnpoolingND) -> ConvTranspose of each channel (group = C) with
    a kernel of ones: each input element spread over its window, overlaps summed, as
    Chainer does. ``cover_all`` and ``outsize`` set the end padding and
    ``output_padding``, so every case matches (a nearest Resize would only match
    ``ksize == stride`` without padding)."""
    channels = func.inputs[0].shape[1]
    ksize, stride, pad = tuple(func.ksize), tuple(func.stride), tuple(func.pad)
    spatial = _spatial(func)
    outsize = func.outsize
    if outsize is None:
        cut = 1 if func.cover_all else 0
        outsize = tuple(s * (n - 1) + k - 2 * p - cut * (s - 1)
                        for n, k, s, p in zip(spatial, ksize, stride, pad))
    pads, extra = deconv_pads(spatial, ksize, stride, pad, (1,) * len(ksize), outsize)
    ones = numpy.ones((channels, 1) + ksize, func.inputs[0].dtype)
    weight = context.add_const(ones, 'ones')
    attrs: dict[str, Any] = {}
    if any(extra):
        attrs['output_padding'] = extra
    return onnx_helper.make_node('ConvTranspose', [input_names[0], weight], output_names,
                                 kernel_shape=list(ksize), strides=list(stride), pads=pads,
                                 group=channels, **attrs),


convert_UnpoolingND = convert_Unpooling2D


@support((10, 16))
def convert_ROIAverageAlign2D(func: ROIAverageAlign2D, opset_version: int, input_names: list[str],
                              output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ROIAverageAlign2D -> RoiAlign (mode avg, ``output_height/width``,
    ``spatial_scale``; ``coordinate_transformation_mode='output_half_pixel'`` from opset
    16, its only behaviour before): the same bins, samples at the centres of a
    ``sampling_ratio`` grid (0: ``ceil(length / out)``), and bilinear reads zero beyond one
    pixel outside the image. The regions' columns ``(y_min, x_min, y_max, x_max)`` are
    gathered to ONNX's ``(x1, y1, x2, y2)`` and the indices cast to int64. ONNX takes one
    ratio for both axes: a pair of different ratios raises ValueError."""
    ratio_h, ratio_w = func.sampling_ratio
    if ratio_h != ratio_w:
        raise ValueError('ROIAverageAlign2D: ONNX RoiAlign takes one sampling_ratio for '
                         f'both axes, not {func.sampling_ratio}')
    x, rois, indices = input_names
    x_dtype = numpy.dtype(func.inputs[0].dtype)
    gb = onnx_helper.GraphBuilder()
    if numpy.dtype(func.inputs[1].dtype) != x_dtype:
        rois = gb.op('Cast', [rois], to=onnx.helper.np_dtype_to_tensor_dtype(x_dtype))
    order = context.add_const(numpy.array([1, 0, 3, 2], numpy.int64), 'xy_order')
    boxes = gb.op('Gather', [rois, order], axis=1)
    batch = gb.op('Cast', [indices], to=onnx.TensorProto.INT64)
    attrs: dict[str, Any] = {}
    if opset_version >= 16:
        attrs['coordinate_transformation_mode'] = 'output_half_pixel'
    gb.op_output_named('RoiAlign', [x, boxes, batch], output_names, mode='avg',
                       output_height=func.outh, output_width=func.outw,
                       sampling_ratio=ratio_h or 0, spatial_scale=float(func.spatial_scale),
                       **attrs)
    return gb.nodes()


def _roi_bins(gb: onnx_helper.GraphBuilder, context: Context, func: Any, rois: str,
              ) -> list[tuple[str, str]]:
    """Chainer's integer bins of each region along height and width, computed in the
    graph in float64 as Chainer does: the region ``round(rois * spatial_scale)`` (Round,
    half to even), its length ``max(end - start, 1)``, bin ``i`` of ``n`` covering
    ``[start + floor(i L / n), start + ceil((i + 1) L / n))`` clipped to the image.

    Returns, per axis, ``(inside, count)``: ``inside`` (bool ``(R, n, size)``) whether
    each pixel lies in each bin, ``count`` (float64 ``(R, n, 1)``) the bin's pixels (at
    least 1)."""
    f64 = onnx.TensorProto.DOUBLE
    boxes = gb.op('Round', [gb.op('Mul', [gb.op('Cast', [rois], to=f64), context.add_const(
        numpy.asarray(func.spatial_scale, numpy.float64), 'spatial_scale')])])
    zero = context.add_const(numpy.zeros((), numpy.float64), 'zero')
    one = context.add_const(numpy.ones((), numpy.float64), 'one')
    out = []
    for (first, last), n, size in zip(((0, 2), (1, 3)), (func.outh, func.outw),
                                      func.inputs[0].shape[2:]):
        start, end = (gb.op('Gather', [boxes, context.add_const(
            numpy.array([col], numpy.int64), 'column')], axis=1) for col in (first, last))
        step = gb.op('Div', [gb.op('Max', [gb.op('Sub', [end, start]), one]),
                             context.add_const(numpy.asarray(n, numpy.float64), 'bins')])
        limit = context.add_const(numpy.asarray(size, numpy.float64), 'limit')
        edges = []
        for rounding, offset in (('Floor', 0), ('Ceil', 1)):
            i = context.add_const(numpy.arange(offset, n + offset, dtype=numpy.float64)[None],
                                  'bin_index')
            edge = gb.op('Add', [gb.op(rounding, [gb.op('Mul', [i, step])]), start])
            edge = gb.op('Max', [gb.op('Min', [edge, limit]), zero])
            edges.append(reshape_to(gb, context, edge, [-1, n, 1]))
        lo, hi = edges
        pixels = context.add_const(numpy.arange(size, dtype=numpy.float64), 'pixels')
        inside = gb.op('And', [gb.op('Not', [gb.op('Less', [pixels, lo])]),
                               gb.op('Less', [pixels, hi])])
        count = gb.op('Max', [gb.op('Sub', [hi, lo]), one])
        out.append((inside, count))
    return out


def _roi_images(gb: onnx_helper.GraphBuilder, x: str, indices: str) -> str:
    """The image of each region, ``(R, C, H, W)`` (Cast of the indices, Gather)."""
    batch = gb.op('Cast', [indices], to=onnx.TensorProto.INT64)
    return gb.op('Gather', [x, batch], axis=0)


@support((11,))
def convert_ROIAveragePooling2D(func: ROIAveragePooling2D, opset_version: int,
                                input_names: list[str],
                                output_names: list[str], context: Context
                                ) -> tuple[NodeProto, ...]:
    """ROIAveragePooling2D -> Chainer's integer bins computed from the regions in the
    graph (Round from opset 11; see :func:`_roi_bins`), rows averaging each bin's pixels
    along each axis ``A_y (R, out_h, H)`` and ``A_x (R, out_w, W)`` (Cast, Div: an empty
    bin gives 0), and ``A_y @ x[index] @ A_x^T`` (Gather, MatMul, Transpose, MatMul)."""
    x, rois, indices = input_names
    dtype = onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(func.inputs[0].dtype))
    gb = onnx_helper.GraphBuilder()
    means: list[str] = []
    for inside, count in _roi_bins(gb, context, func, rois):
        mean = gb.op('Div', [gb.op('Cast', [inside], to=onnx.TensorProto.DOUBLE), count])
        means.append(reshape_to(gb, context, gb.op('Cast', [mean], to=dtype),
                                [0, 1, func.outh if not means else func.outw, -1]))
    rows = gb.op('MatMul', [means[0], _roi_images(gb, x, indices)])
    cols = gb.op('Transpose', [means[1]], perm=[0, 1, 3, 2])
    gb.op_output_named('MatMul', [rows, cols], output_names)
    return gb.nodes()


@support((11, 18))
def convert_ROIMaxPooling2D(func: ROIMaxPooling2D, opset_version: int, input_names: list[str],
                            output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ROIMaxPooling2D -> Chainer's integer bins computed from the regions in the graph
    (Round from opset 11; see :func:`_roi_bins`), each region's image (Gather) set to
    ``-inf`` outside each bin (And, Where over ``(R, C, out_h, out_w, H, W)``) and
    ReduceMax over the pixels (an empty bin gives ``-inf``, as in Chainer; axes as an
    input from opset 18). ONNX MaxRoiPool differs: it counts both region ends."""
    x, rois, indices = input_names
    gb = onnx_helper.GraphBuilder()
    (rows, _), (cols, _) = _roi_bins(gb, context, func, rois)
    rows = reshape_to(gb, context, rows, [0, 1, func.outh, 1, -1, 1])
    cols = reshape_to(gb, context, cols, [0, 1, 1, func.outw, 1, -1])
    images = reshape_to(gb, context, _roi_images(gb, x, indices),
                        [0, 0, 1, 1] + list(func.inputs[0].shape[2:]))
    low = context.add_const(numpy.asarray(-numpy.inf, func.inputs[0].dtype), 'neg_inf')
    masked = gb.op('Where', [gb.op('And', [rows, cols]), images, low])
    reduce_op(gb, context, opset_version, 'ReduceMax', masked, [4, 5], False, output_names)
    return gb.nodes()
