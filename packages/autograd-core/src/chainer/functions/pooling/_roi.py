"""Region-of-interest pooling: bins, samples and the linear maps behind the ROI functions.

Every ROI function reads, for each region ``r`` (of image ``batch[r]``), an output
``(c, out_h, out_w)`` that is linear in the input once the bins are known (max
functions: once their argmax is known). Two kinds of linear map cover them all:

- :class:`SparseMap`: each output is a weighted sum of a few input pixels (the argmax
  of a bin, or the four neighbours of a bilinear sample);
- :class:`SeparableMap`: ``y[r] = A_y[r] @ x[batch[r]] @ A_x[r].T`` per channel, with
  one matrix per axis (bin means, bilinear sample means), computed with GEMMs.

:class:`MapNode` and :class:`AdjointNode` apply a map and its adjoint as
differentiable functions (each the gradient of the other). Everything works for
NumPy and CuPy arrays alike.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import numeric_args, type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray

# The largest number of elements a chunk of gathered windows may hold.
_CHUNK = 1 << 22


# -- arguments ---------------------------------------------------------------------
def pair(value: Any, name: str, allow_none: bool = False) -> tuple[Any, Any]:
    """``value`` (an int, or a pair of ints) as a pair of positive ints (or None when
    ``allow_none``).

    Raises:
        TypeError, ValueError: naming the argument.
    """
    items = value if isinstance(value, (tuple, list)) else (value, value)
    if len(items) != 2:
        raise ValueError(f'{name} must be an int or a pair of ints, not {value!r}')
    out: list[int | None] = []
    for v in items:
        if v is None and allow_none:
            out.append(None)
            continue
        try:
            if isinstance(v, (bool, numpy.bool_)):
                raise TypeError
            v = operator.index(v)
        except TypeError:
            raise TypeError(f'{name} must be an int or a pair of ints, not {value!r}') \
                from None
        if v <= 0:
            raise ValueError(f'{name} must be positive, not {value!r}')
        out.append(v)
    return out[0], out[1]


def check_spatial_scale(spatial_scale: Any) -> float:
    """``spatial_scale`` as a float; TypeError for anything but a real number."""
    if not numeric_args.is_real(spatial_scale):
        raise TypeError(f'spatial_scale must be a number, not {spatial_scale!r}')
    return float(spatial_scale)


def check_roi_types(in_types: Any, n_coords: int, with_indices: bool) -> None:
    """Type-check ``(x, rois[, roi_indices])``: a float image batch, float regions of
    ``n_coords`` coordinates, and one int index per region."""
    # v7's order, with the inputs unnamed as v7 left them; v7 took regions of x's dtype
    # and int32 indices, the project any float regions and any signed int indices:
    # where both refuse, the condition reported is v7's
    type_check.expect(in_types.size() == (3 if with_indices else 2))
    x_type, roi_type = in_types[0], in_types[1]
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
    if type_check.eval(roi_type.dtype).kind != 'f':
        type_check.expect(x_type.dtype == roi_type.dtype)
    type_check.expect(roi_type.ndim == 2, roi_type.shape[1] == n_coords)
    if with_indices:
        idx_type = in_types[2]
        if type_check.eval(idx_type.dtype).kind != 'i':
            type_check.expect(idx_type.dtype == numpy.int32)
        type_check.expect(idx_type.ndim == 1, roi_type.shape[0] == idx_type.shape[0])


def scaled_boxes(rois: Any, order: tuple[int, int, int, int], spatial_scale: float) -> Any:
    """The regions' ``(y_min, x_min, y_max, x_max)`` times ``spatial_scale``, in
    float64, from the columns ``order`` of ``rois``."""
    return rois[:, list(order)].astype(numpy.float64) * spatial_scale


# -- integer bins (ROI pooling) ------------------------------------------------------
def int_bins(xp: Any, start: Any, length: Any, out: int, limit: int) -> tuple[Any, Any]:
    """The pixel ranges ``[lo, hi)`` of ``out`` bins splitting each region along one
    axis, clipped to ``[0, limit]``.

    Args:
        start: int array ``(R,)``: the first pixel of each region.
        length: int array ``(R,)``: its length in pixels (at least 1).
        out: the number of bins.
        limit: the image length.

    Returns:
        Two int arrays ``(R, out)``; a bin is empty where ``hi <= lo``.
    """
    step = length.astype(numpy.float64)[:, None] / out
    i = xp.arange(out, dtype=numpy.float64)
    lo = xp.floor(i * step).astype(numpy.int64) + start[:, None]
    hi = xp.ceil((i + 1) * step).astype(numpy.int64) + start[:, None]
    return xp.clip(lo, 0, limit), xp.clip(hi, 0, limit)


def mean_matrix(xp: Any, lo: Any, hi: Any, size: int, dtype: Any) -> Any:
    """``(R, out, size)`` rows averaging the pixels ``[lo, hi)`` of each bin (zero rows
    for empty bins)."""
    p = xp.arange(size)
    inside = (p >= lo[..., None]) & (p < hi[..., None])
    n = xp.maximum(hi - lo, 1).astype(dtype)
    return inside.astype(dtype) / n[..., None]


def max_bins(x: Any, batch: Any, hlo: Any, hhi: Any, wlo: Any, whi: Any,
             empty: float) -> tuple[Any, Any]:
    """The maximum of each bin of each region, and where it is.

    Args:
        x: images ``(N, C, H, W)``.
        batch: int array ``(R,)``: the image of each region.
        hlo, hhi, wlo, whi: the bins' row and column ranges (from :func:`int_bins`).
        empty: the output of an empty bin.

    Returns:
        ``(y, pos)``: ``y`` of shape ``(R, C, out_h, out_w)``; ``pos`` (int64, same
        shape) the flat pixel index ``h * W + w`` of the first maximum in row-major
        order, -1 for empty bins.
    """
    xp = backend.get_array_module(x)
    n, c, height, width = x.shape
    r, out_h = hlo.shape
    out_w = wlo.shape[1]
    y = xp.full((r, out_h, out_w, c), empty, x.dtype)
    pos = xp.full((r, out_h, out_w, c), -1, numpy.int64)
    if r == 0 or c == 0:
        return y.transpose(0, 3, 1, 2), pos.transpose(0, 3, 1, 2)
    kh = max(int((hhi - hlo).max()), 1)
    kw = max(int((whi - wlo).max()), 1)
    xt = x.transpose(0, 2, 3, 1)  # (N, H, W, C): a bin's pixels gather C at once
    step = max(1, _CHUNK // (out_h * out_w * kh * kw * c))
    for s in range(0, r, step):
        sl = slice(s, s + step)
        rows = hlo[sl, :, None] + xp.arange(kh)  # (r, out_h, kh)
        cols = wlo[sl, :, None] + xp.arange(kw)  # (r, out_w, kw)
        valid = ((rows < hhi[sl, :, None])[:, :, None, :, None]
                 & (cols < whi[sl, :, None])[:, None, :, None, :])
        rows = xp.minimum(rows, height - 1)[:, :, None, :, None]
        cols = xp.minimum(cols, width - 1)[:, None, :, None, :]
        b = batch[sl, None, None, None, None]
        v = xt[b, rows, cols]  # (r, out_h, out_w, kh, kw, C)
        v = xp.where(valid[..., None], v, x.dtype.type(-numpy.inf))
        v = v.reshape(v.shape[:3] + (kh * kw, c))
        k = v.argmax(axis=3)  # (r, out_h, out_w, C)
        best = xp.take_along_axis(v, k[:, :, :, None, :], 3)[:, :, :, 0]
        any_valid = valid.reshape(valid.shape[:3] + (-1,)).any(axis=3)[..., None]
        y[sl] = xp.where(any_valid, best, x.dtype.type(empty))
        ky, kx = k // kw, k % kw
        ph = hlo[sl, :, None, None] + ky
        pw = wlo[sl, None, :, None] + kx
        pos[sl] = xp.where(any_valid, ph * width + pw, -1)
    return y.transpose(0, 3, 1, 2), pos.transpose(0, 3, 1, 2)


def pooling_bins(xp: Any, boxes: Any, outsize: tuple[int, int], in_hw: tuple[int, int],
                 extra: int) -> tuple[Any, Any, Any, Any]:
    """The integer bins of regions: ``(h_lo, h_hi, w_lo, w_hi)`` from :func:`int_bins`.

    Args:
        boxes: float ``(R, 4)`` scaled ``(y_min, x_min, y_max, x_max)``, rounded to
            pixels half to even.
        outsize: ``(out_h, out_w)``.
        in_hw: the image size ``(H, W)``.
        extra: added to ``max - min`` for a region's length (1: both ends inclusive).
    """
    box = xp.round(boxes).astype(numpy.int64)
    length = xp.maximum(box[:, 2:] - box[:, :2] + extra, 1)
    hlo, hhi = int_bins(xp, box[:, 0], length[:, 0], outsize[0], in_hw[0])
    wlo, whi = int_bins(xp, box[:, 1], length[:, 1], outsize[1], in_hw[1])
    return hlo, hhi, wlo, whi


# -- bilinear samples (ROI align) ----------------------------------------------------
def grid_counts(xp: Any, length: Any, out: int, ratio: Any) -> Any:
    """The number of samples per bin along one axis: ``ratio``, or
    ``ceil(length / out)`` for each region when ``ratio`` is None."""
    if ratio is not None:
        return xp.full(length.shape, ratio, numpy.int64)
    return xp.ceil(length / out).astype(numpy.int64)


def bilinear_samples(xp: Any, start: Any, length: Any, out: int, grid: Any,
                     size: int) -> tuple[Any, Any, Any, Any, Any]:
    """The bilinear samples of each bin of each region along one axis.

    Bin ``i`` of a region holds ``grid`` evenly spaced samples at
    ``start + (i + (j + 0.5) / grid) * length / out``. A sample beyond
    ``[-1, size]`` reads nothing; others are clamped to ``[0, size - 1]`` and read
    their two neighbouring pixels.

    Args:
        start, length: float arrays ``(R,)``.
        out: the number of bins.
        grid: int array ``(R,)``: samples per bin.
        size: the image length.

    Returns:
        ``(lo, hi, w_lo, w_hi, valid)`` of shape ``(R, out, G)`` (``G`` the largest
        grid): the two pixels, their weights (zero for samples that read nothing or
        lie beyond the region's grid) and whether the sample exists.
    """
    g = max(int(grid.max()), 1) if grid.size else 1
    j = xp.arange(g, dtype=numpy.float64)
    i = xp.arange(out, dtype=numpy.float64)
    binsize = (length / out)[:, None, None]
    grid_f = grid.astype(numpy.float64)[:, None, None]
    p = start[:, None, None] + i[None, :, None] * binsize \
        + (j[None, None, :] + 0.5) * binsize / grid_f
    valid = (j[None, None, :] < grid_f) & (p >= -1) & (p <= size)
    p = xp.maximum(p, 0)
    lo = xp.floor(p).astype(numpy.int64)
    top = lo >= size - 1
    lo = xp.where(top, size - 1, lo)
    hi = xp.where(top, size - 1, lo + 1)
    frac = xp.where(top, 0.0, p - lo)
    w_lo = xp.where(valid, 1 - frac, 0.0)
    w_hi = xp.where(valid, frac, 0.0)
    return lo, hi, w_lo, w_hi, valid


def sample_matrix(xp: Any, lo: Any, hi: Any, w_lo: Any, w_hi: Any, size: int,
                  dtype: Any) -> Any:
    """``(R, out, G, size)`` rows holding the bilinear weights of each sample."""
    p = xp.arange(size)
    return ((p == lo[..., None]) * w_lo[..., None]
            + (p == hi[..., None]) * w_hi[..., None]).astype(dtype)


def align_samples(xp: Any, boxes: Any, outsize: tuple[int, int], ratio: tuple[Any, Any],
                  in_hw: tuple[int, int]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The bilinear samples of regions along each axis (:func:`bilinear_samples`).

    Args:
        boxes: float ``(R, 4)`` scaled ``(y_min, x_min, y_max, x_max)``; a region is at
            least one pixel long.
        outsize: ``(out_h, out_w)``.
        ratio: samples per bin along each axis (None: ``ceil(length / out)``).
        in_hw: the image size ``(H, W)``.

    Returns:
        The samples along the rows, then along the columns, each with its grid counts
        appended: ``(lo, hi, w_lo, w_hi, valid, grid)``.
    """
    axes = []
    for a in range(2):
        length = xp.maximum(boxes[:, 2 + a] - boxes[:, a], 1.0)
        grid = grid_counts(xp, length, outsize[a], ratio[a])
        axes.append(bilinear_samples(xp, boxes[:, a], length, outsize[a], grid, in_hw[a])
                    + (grid,))
    return axes[0], axes[1]


# -- linear maps ---------------------------------------------------------------------
class SparseMap:
    """``y[r, c, i, j] = sum_k w[r, c, i, j, k] * x[batch[r], c].flat[pos[r, c, i, j, k]]``.

    Args:
        batch: int array ``(R,)``.
        pos: int array ``(R, C, out_h, out_w, K)`` of flat pixel indexes ``h * W + w``.
        weight: array of the same shape.
        in_shape: the image batch's shape ``(N, C, H, W)``.
    """

    def __init__(self, batch: Any, pos: Any, weight: Any, in_shape: tuple[int, ...]) -> None:
        self.batch, self.pos, self.weight, self.in_shape = batch, pos, weight, in_shape

    def apply(self, x: Any) -> Any:
        xp = backend.get_array_module(x)
        n, c, h, w = x.shape
        flat = x.reshape(n, c, h * w)
        ch = xp.arange(c)[None, :, None, None, None]
        v = flat[self.batch[:, None, None, None, None], ch, self.pos]
        return (v * self.weight).sum(axis=-1).astype(x.dtype, copy=False)

    def adjoint(self, g: Any) -> Any:
        xp = backend.get_array_module(g)
        n, c, h, w = self.in_shape
        ch = xp.arange(c)[None, :, None, None, None]
        index = (self.batch[:, None, None, None, None] * c + ch) * (h * w) + self.pos
        weights = (g[..., None] * self.weight).ravel()
        gx = xp.bincount(index.ravel(), weights=weights, minlength=n * c * h * w)
        return gx.astype(g.dtype, copy=False).reshape(self.in_shape)


class SeparableMap:
    """``y[r, c] = ay[r] @ x[batch[r], c] @ ax[r].T`` (computed with GEMMs per image).

    Args:
        batch: int array ``(R,)``.
        ay: ``(R, out_h, H)``; ax: ``(R, out_w, W)``.
        in_shape: the image batch's shape ``(N, C, H, W)``.
    """

    def __init__(self, batch: Any, ay: Any, ax: Any, in_shape: tuple[int, ...]) -> None:
        self.batch, self.ay, self.ax, self.in_shape = batch, ay, ax, in_shape

    def _groups(self, xp: Any) -> list[tuple[int, Any]]:
        """``(image, region indexes)`` for each image that has regions, in chunks
        that bound the intermediate products."""
        n, c, h, w = self.in_shape
        out_h = self.ay.shape[1]
        step = max(1, _CHUNK // max(1, out_h * c * w))
        groups = []
        batch = backend.CpuDevice().send_array(self.batch)
        for b in numpy.unique(batch):
            sel = numpy.nonzero(batch == b)[0]
            for s in range(0, len(sel), step):
                groups.append((int(b), xp.asarray(sel[s:s + step])))
        return groups

    def apply(self, x: Any) -> Any:
        xp = backend.get_array_module(x)
        n, c, h, w = x.shape
        r, out_h, _ = self.ay.shape
        out_w = self.ax.shape[1]
        dtype = self.ay.dtype
        y = xp.zeros((r, c, out_h, out_w), dtype)
        for b, sel in self._groups(xp):
            k = len(sel)
            img = x[b].astype(dtype, copy=False).transpose(1, 0, 2).reshape(h, c * w)
            t = self.ay[sel].reshape(k * out_h, h) @ img  # (k * out_h, c * w)
            t = t.reshape(k, out_h * c, w) @ self.ax[sel].transpose(0, 2, 1)
            y[sel] = t.reshape(k, out_h, c, out_w).transpose(0, 2, 1, 3)
        return y.astype(x.dtype, copy=False)

    def adjoint(self, g: Any) -> Any:
        xp = backend.get_array_module(g)
        n, c, h, w = self.in_shape
        out_h = self.ay.shape[1]
        out_w = self.ax.shape[1]
        dtype = self.ay.dtype
        gx = xp.zeros((n, h, c * w), dtype)
        for b, sel in self._groups(xp):
            k = len(sel)
            gs = g[sel].astype(dtype, copy=False).transpose(0, 2, 1, 3)
            u = gs.reshape(k, out_h * c, out_w) @ self.ax[sel]  # (k, out_h * c, w)
            gx[b] += self.ay[sel].reshape(k * out_h, h).T @ u.reshape(k * out_h, c * w)
        return gx.reshape(n, h, c, w).transpose(0, 2, 1, 3).astype(g.dtype)


class MapNode(FunctionNode):
    """Apply a :class:`SparseMap` or :class:`SeparableMap` (a differentiable function
    of the images)."""

    def __init__(self, linear_map: Any) -> None:
        self.map = linear_map

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return self.map.apply(inputs[0]),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return AdjointNode(self.map).apply(grad_outputs)


class AdjointNode(FunctionNode):
    """Apply the adjoint of a map: the gradient of the ROI functions."""

    def __init__(self, linear_map: Any) -> None:
        self.map = linear_map

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return self.map.adjoint(inputs[0]),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return MapNode(self.map).apply(grad_outputs)


class ROIFunction(FunctionNode):
    """Base of the ROI functions: the output size, the scale, and a backward through
    the linear map (``self._map``) that the forward leaves.

    Args:
        outsize: ``(out_h, out_w)`` or an int for both.
        spatial_scale: the factor from region coordinates to pixels of ``x``.

    Raises:
        TypeError, ValueError: for a bad ``outsize`` or ``spatial_scale``.
    """

    _map: Any
    _type_check_cache_attrs: tuple[str, ...] | None = ()  # the checks read shapes only

    def __init__(self, outsize: Any, spatial_scale: Any) -> None:
        self.outh, self.outw = pair(outsize, 'outsize')
        self.spatial_scale = check_spatial_scale(spatial_scale)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gx, = AdjointNode(self._map).apply(grad_outputs)
        return (gx,) + (None,) * (len(self.inputs) - 1)
