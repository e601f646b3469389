"""Region-of-interest max pooling (Fast R-CNN), regions given with their image."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions.pooling import _roi
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


def max_pooling_map(x: NdArray, batch: NdArray, bins: tuple[NdArray, ...],
                    empty: float) -> tuple[NdArray, _roi.SparseMap]:
    """The maxima of the bins of regions, and the map that reads them (its adjoint
    is the gradient).

    Args:
        x: images ``(N, C, H, W)``.
        batch: the image of each region ``(R,)``.
        bins: ``(h_lo, h_hi, w_lo, w_hi)`` from :func:`_roi.pooling_bins`.
        empty: the output of an empty bin.
    """
    hlo, hhi, wlo, whi = bins
    y, pos = _roi.max_bins(x, batch, hlo, hhi, wlo, whi, empty=empty)
    found = pos >= 0
    weight = found.astype(x.dtype)[..., None]
    return y, _roi.SparseMap(batch, (pos * found)[..., None], weight, x.shape)


class ROIPooling2D(_roi.ROIFunction):
    """The maximum of each of ``outh x outw`` bins of each region.

    A region ``(batch_index, x_min, y_min, x_max, y_max)`` covers the pixels from
    ``round(min * spatial_scale)`` to ``round(max * spatial_scale)``, both included;
    bin ``i`` of ``n`` over a region of ``L`` pixels starting at ``s`` covers
    ``[s + floor(i L / n), s + ceil((i + 1) L / n))`` within the image. An empty bin
    gives 0.

    Args:
        outh, outw: the number of bins (the output size).
        spatial_scale: the factor from region coordinates to pixels of ``x``.
    """

    def __init__(self, outh: int, outw: int, spatial_scale: float) -> None:
        _roi.ROIFunction.__init__(self, (outh, outw), spatial_scale)

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        _roi.check_roi_types(in_types, 5, False)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, rois = inputs
        xp = backend.get_array_module(x)
        batch = rois[:, 0].astype(numpy.int64)
        boxes = _roi.scaled_boxes(rois, (2, 1, 4, 3), self.spatial_scale)
        bins = _roi.pooling_bins(xp, boxes, (self.outh, self.outw), x.shape[2:], 1)
        y, self._map = max_pooling_map(x, batch, bins, 0.0)
        return y,


@guarded
def roi_pooling_2d(x: VariableOrArray, rois: VariableOrArray, outh: int, outw: int,
                   spatial_scale: float) -> Variable:
    """Region-of-interest max pooling (Fast R-CNN).

    Args:
        x: variable of shape ``(N, C, H, W)``, floating point.
        rois: floats ``(R, 5)``: ``(batch_index, x_min, y_min, x_max, y_max)`` per
            region, in coordinates that ``spatial_scale`` maps to pixels of ``x``.
        outh, outw: the output size (bins per region).
        spatial_scale: the factor from region coordinates to pixels.

    Returns:
        A variable ``(R, C, outh, outw)``: the maximum of each bin (see
        :class:`ROIPooling2D`; 0 for bins outside the image). Gradients flow to ``x``
        only.

    Raises:
        chainer.utils.type_check.InvalidType: for inputs of the wrong dtype or shape.
        TypeError, ValueError: for a bad output size or scale.
    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]


class ROIPooling2DGrad(BackwardNode):
    """The gradient of :class:`ROIPooling2D`: ``(x, rois, gy)`` to ``gx`` (each bin's
    gradient goes to the pixel that held its maximum).

    Args:
        outh, outw, spatial_scale: as in :func:`roi_pooling_2d`.
    """

    n_in = 2
    wrt = (0,)

    def __init__(self, outh: int, outw: int, spatial_scale: float) -> None:
        self.outh = outh
        self.outw = outw
        self.spatial_scale = spatial_scale

    def primal(self) -> FunctionNode:
        return ROIPooling2D(self.outh, self.outw, self.spatial_scale)
