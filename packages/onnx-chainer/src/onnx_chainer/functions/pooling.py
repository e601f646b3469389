"""Converters of chainer.functions.pooling."""

from __future__ import annotations

import warnings
from typing import Any

import numpy
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.functions.connection import conv_pads, deconv_pads
from onnx_chainer.functions.opset_version import support


def _spatial(func: Any) -> tuple[int, ...]:
    return tuple(func.inputs[0].shape[2:])


@support((7,))
def convert_AveragePooling2D(func: Any, opset_version: int, input_names: list[str],
                             output_names: list[str], context: Any) -> tuple[NodeProto, ...]:
    """AveragePooling2D (also AveragePoolingND) -> AveragePool. Chainer's padding of
    zeros counts in each mean (``count_include_pad=1``) unless ``pad_value`` is None;
    ``cover_all`` is extra end padding, counted the same way."""
    pads = conv_pads(func, _spatial(func), func.ksize, func.cover_all)
    include = 0 if getattr(func, 'pad_value', 0) is None else 1
    return onnx_helper.make_node('AveragePool', input_names, output_names,
                                 kernel_shape=list(func.ksize), strides=list(func.stride),
                                 pads=pads, count_include_pad=include),


convert_AveragePoolingND = convert_AveragePooling2D


@support((7, 10))
def convert_MaxPooling2D(func: Any, opset_version: int, input_names: list[str],
                         output_names: list[str], context: Any) -> tuple[NodeProto, ...]:
    """MaxPooling2D (also MaxPoolingND) -> MaxPool. ``cover_all`` (Chainer's default)
    keeps the last partial window: ``ceil_mode`` from opset 10, before it the end
    padding that window needs (the same output)."""
    pads = conv_pads(func, _spatial(func), func.ksize, func.cover_all)
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
def convert_ROIPooling2D(func: Any, opset_version: int, input_names: list[str],
                         output_names: list[str], context: Any) -> tuple[NodeProto, ...]:
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
def convert_Unpooling2D(func: Any, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Any) -> tuple[NodeProto, ...]:
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
