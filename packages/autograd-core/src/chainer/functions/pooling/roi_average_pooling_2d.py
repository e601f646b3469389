"""Region-of-interest average pooling."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.pooling import _roi
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import NdArray, ShapeSpec, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ROIAveragePooling2D(_roi.ROIFunction):
    """The mean of each of ``outsize`` bins of each region (the bins of
    :class:`~chainer.functions.pooling.roi_max_pooling_2d.ROIMaxPooling2D`; an empty
    bin gives 0).

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
        hlo, hhi, wlo, whi = _roi.pooling_bins(xp, boxes, (self.outh, self.outw),
                                               x.shape[2:], 0)
        dtype = numpy.promote_types(x.dtype, numpy.float32)
        ay = _roi.mean_matrix(xp, hlo, hhi, x.shape[2], dtype)
        ax = _roi.mean_matrix(xp, wlo, whi, x.shape[3], dtype)
        self._map = _roi.SeparableMap(roi_indices.astype(numpy.int64), ay, ax, x.shape)
        return self._map.apply(x),


@guarded
def roi_average_pooling_2d(x: VariableOrArray, rois: VariableOrArray, roi_indices: VariableOrArray,
                           outsize: ShapeSpec,
                           spatial_scale: float) -> Variable:
    """Region-of-interest average pooling.

    Args:
        x: variable of shape ``(N, C, H, W)``, floating point.
        rois: floats ``(R, 4)``: ``(y_min, x_min, y_max, x_max)`` per region.
        roi_indices: ints ``(R,)``: the image of each region.
        outsize: ``(out_h, out_w)``, or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.

    Returns:
        A variable ``(R, C, out_h, out_w)``: the mean of each bin (0 for empty bins).
        Gradients flow to ``x`` only.

    Raises:
        chainer.utils.type_check.InvalidType: for inputs of the wrong dtype or shape.
        TypeError, ValueError: for a bad ``outsize`` or ``spatial_scale``.
    """
    return ROIAveragePooling2D(outsize, spatial_scale).apply((x, rois, roi_indices))[0]
