"""Region-of-interest max pooling, regions as ``(y_min, x_min, y_max, x_max)``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.pooling import _roi
from chainer.functions.pooling.roi_pooling_2d import max_pooling_map
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import NdArray, ShapeSpec, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ROIMaxPooling2D(_roi.ROIFunction):
    """The maximum of each of ``outsize`` bins of each region.

    A region ``(y_min, x_min, y_max, x_max)`` starts at pixel
    ``round(min * spatial_scale)`` and is ``max(round(max * s) - round(min * s), 1)``
    pixels long; bin ``i`` of ``n`` over ``L`` pixels from ``p`` covers
    ``[p + floor(i L / n), p + ceil((i + 1) L / n))`` within the image. An empty bin
    gives ``-inf``.

    Args:
        outsize: ``(out_h, out_w)``, or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.
    """

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        _roi.check_roi_types(in_types, 4, True)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        boxes = _roi.scaled_boxes(rois, (0, 1, 2, 3), self.spatial_scale)
        bins = _roi.pooling_bins(xp, boxes, (self.outh, self.outw), x.shape[2:], 0)
        y, self._map = max_pooling_map(x, roi_indices.astype(numpy.int64), bins, -numpy.inf)
        return y,


@guarded
def roi_max_pooling_2d(x: VariableOrArray, rois: VariableOrArray, roi_indices: VariableOrArray,
                       outsize: ShapeSpec,
                       spatial_scale: float) -> Variable:
    """Region-of-interest max pooling.

    Args:
        x: variable of shape ``(N, C, H, W)``, floating point.
        rois: floats ``(R, 4)``: ``(y_min, x_min, y_max, x_max)`` per region.
        roi_indices: ints ``(R,)``: the image of each region.
        outsize: ``(out_h, out_w)``, or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.

    Returns:
        A variable ``(R, C, out_h, out_w)``: the maximum of each bin (see
        :class:`ROIMaxPooling2D`; ``-inf`` for empty bins). Gradients flow to ``x``
        only.

    Raises:
        chainer.utils.type_check.InvalidType: for inputs of the wrong dtype or shape.
        TypeError, ValueError: for a bad ``outsize`` or ``spatial_scale``.
    """
    return ROIMaxPooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
