"""Region-of-interest align (Mask R-CNN) with the maximum of the samples of each bin."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.pooling import _roi
from chainer.functions.pooling.roi_average_align_2d import ROIAverageAlign2D
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import NdArray, ShapeSpec, VariableOrArray


class ROIMaxAlign2D(ROIAverageAlign2D):
    """The maximum of the bilinear samples of each of ``outsize`` bins of each region
    (the samples of :class:`ROIAverageAlign2D`, except that samples beyond one pixel
    outside the image are left out; a bin without samples gives ``-inf``).

    Args:
        outsize, spatial_scale, sampling_ratio: see :class:`ROIAverageAlign2D`.
    """

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        r, c = rois.shape[0], x.shape[1]
        oh, ow = self.outh, self.outw
        boxes = _roi.scaled_boxes(rois, (0, 1, 2, 3), self.spatial_scale)
        ys, xs = _roi.align_samples(xp, boxes, (oh, ow), self.sampling_ratio, x.shape[2:])
        dtype = numpy.promote_types(x.dtype, numpy.float32)
        gh, gw = ys[0].shape[2], xs[0].shape[2]
        sy = _roi.sample_matrix(xp, ys[0], ys[1], ys[2], ys[3], x.shape[2], dtype)
        sy = sy.reshape(r, oh * gh, x.shape[2])
        sx = _roi.sample_matrix(xp, xs[0], xs[1], xs[2], xs[3], x.shape[3], dtype)
        sx = sx.reshape(r, ow * gw, x.shape[3])
        batch = roi_indices.astype(numpy.int64)
        v = _roi.SeparableMap(batch, sy, sx, x.shape).apply(x.astype(dtype, copy=False))
        v = v.reshape(r, c, oh, gh, ow, gw).transpose(0, 1, 2, 4, 3, 5)
        valid = ys[4][:, :, None, :, None] & xs[4][:, None, :, None, :]  # (r, oh, ow, gh, gw)
        valid = valid.reshape(r, 1, oh, ow, gh * gw)
        v = xp.where(valid, v.reshape(r, c, oh, ow, gh * gw), -numpy.inf)
        k = v.argmax(axis=-1)
        y = xp.take_along_axis(v, k[..., None], -1)[..., 0]
        # the chosen sample's two rows and two columns, and their weights (zero for
        # a sample that does not exist: then the output is -inf and has no gradient)
        iy, ix = k // gw, k % gw
        ri = xp.arange(r)[:, None, None, None]
        hi_ = xp.arange(oh)[None, None, :, None]
        wi_ = xp.arange(ow)[None, None, None, :]
        rows = [a[ri, hi_, iy] for a in ys[:2]]
        wrow = [a[ri, hi_, iy] for a in ys[2:4]]
        cols = [a[ri, wi_, ix] for a in xs[:2]]
        wcol = [a[ri, wi_, ix] for a in xs[2:4]]
        width = x.shape[3]
        pos = xp.stack([rr * width + cc for rr in rows for cc in cols], axis=-1)
        weight = xp.stack([wr * wc for wr in wrow for wc in wcol], axis=-1)
        weight = weight.astype(x.dtype)
        self._map = _roi.SparseMap(batch, pos, weight, x.shape)
        return y.astype(x.dtype, copy=False),


@guarded
def roi_max_align_2d(x: VariableOrArray, rois: VariableOrArray, roi_indices: VariableOrArray,
                     outsize: ShapeSpec,
                     spatial_scale: float,
                     sampling_ratio: int | Sequence[int | None] | None = None) -> Variable:
    """Region-of-interest align with the maximum of each bin's bilinear samples.

    Args:
        x: variable of shape ``(N, C, H, W)``, floating point.
        rois: floats ``(R, 4)``: ``(y_min, x_min, y_max, x_max)`` per region.
        roi_indices: ints ``(R,)``: the image of each region.
        outsize: ``(out_h, out_w)``, or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.
        sampling_ratio: samples per bin along each axis (an int, a pair, or None to
            use ``ceil(region length / out)``).

    Returns:
        A variable ``(R, C, out_h, out_w)`` (see :class:`ROIMaxAlign2D`; ``-inf`` for
        bins without samples). Gradients flow to ``x`` only.

    Raises:
        chainer.utils.type_check.InvalidType: for inputs of the wrong dtype or shape.
        TypeError, ValueError: for a bad ``outsize``, ``spatial_scale`` or
            ``sampling_ratio``.
    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio).apply(
        (x, rois, roi_indices))[0]
