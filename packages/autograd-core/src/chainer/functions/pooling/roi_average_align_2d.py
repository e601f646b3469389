"""Region-of-interest align (Mask R-CNN) with the mean of the samples of each bin."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.pooling import _roi
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray, ShapeSpec, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ROIAverageAlign2D(_roi.ROIFunction):
    """The mean of bilinear samples of each of ``outsize`` bins of each region.

    A region ``(y_min, x_min, y_max, x_max)`` times ``spatial_scale`` (not rounded)
    is at least one pixel long along each axis and splits into equal bins; each bin
    is sampled on a ``sampling_ratio`` grid (``ceil(length / out)`` samples per axis
    when None), at the centres of its cells, by bilinear interpolation. A sample
    beyond one pixel outside the image counts as 0.

    Args:
        outsize: ``(out_h, out_w)``, or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.
        sampling_ratio: samples per bin along each axis: an int, a pair (each
            positive or None), or None.
    """

    def __init__(self, outsize: ShapeSpec, spatial_scale: float,
                 sampling_ratio: int | Sequence[int | None] | None = None) -> None:
        _roi.ROIFunction.__init__(self, outsize, spatial_scale)
        self.sampling_ratio = _roi.pair(sampling_ratio, 'sampling_ratio', allow_none=True)

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        _roi.check_roi_types(in_types, 4, True)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        boxes = _roi.scaled_boxes(rois, (0, 1, 2, 3), self.spatial_scale)
        dtype = numpy.promote_types(x.dtype, numpy.float32)
        mats = []
        for axis, size in zip(_roi.align_samples(
                xp, boxes, (self.outh, self.outw), self.sampling_ratio, x.shape[2:]),
                x.shape[2:]):
            lo, hi, w_lo, w_hi, _, grid = axis
            m = _roi.sample_matrix(xp, lo, hi, w_lo, w_hi, size, numpy.float64)
            mats.append((m.sum(axis=2) / grid[:, None, None]).astype(dtype))
        self._map = _roi.SeparableMap(roi_indices.astype(numpy.int64), mats[0], mats[1],
                                      x.shape)
        return self._map.apply(x),


@guarded
def roi_average_align_2d(x: VariableOrArray, rois: VariableOrArray, roi_indices: VariableOrArray,
                         outsize: ShapeSpec,
                         spatial_scale: float,
                         sampling_ratio: int | Sequence[int | None] | None = None) -> Variable:
    """Region-of-interest align with the mean of each bin's bilinear samples.

    Args:
        x: variable of shape ``(N, C, H, W)``, floating point.
        rois: floats ``(R, 4)``: ``(y_min, x_min, y_max, x_max)`` per region.
        roi_indices: ints ``(R,)``: the image of each region.
        outsize: ``(out_h, out_w)``, or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.
        sampling_ratio: samples per bin along each axis (an int, a pair, or None to
            use ``ceil(region length / out)``).

    Returns:
        A variable ``(R, C, out_h, out_w)`` (see :class:`ROIAverageAlign2D`).
        Gradients flow to ``x`` only.

    Raises:
        chainer.utils.type_check.InvalidType: for inputs of the wrong dtype or shape.
        TypeError, ValueError: for a bad ``outsize``, ``spatial_scale`` or
            ``sampling_ratio``.
    """
    func = ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio)
    return func.apply((x, rois, roi_indices))[0]
