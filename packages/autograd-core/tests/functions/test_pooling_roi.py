"""Region-of-interest functions (roi_pooling_2d, roi_max_pooling_2d,
roi_average_pooling_2d, roi_max_align_2d, roi_average_align_2d): values against NumPy
references that visit every bin and sample, gradients checked numerically (to the
image only), and bad arguments."""

import math

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.utils.type_check import InvalidType

N, C, H, W = 3, 2, 12, 8
# (y_min, x_min, y_max, x_max): inside, across the border, outside, a point, tiny,
# inverted, fractional
BOXES = numpy.array([[1, 1, 7, 7], [2, 6, 12, 8], [1, 3, 11, 6], [3, 3, 3, 3],
                     [-4, -3, 2.5, 1.2], [9, 6, 14, 11], [5.2, 2.2, 5.4, 2.3],
                     [6, 5, 2, 1], [1.1, 2.2, 3.3, 4.4]], numpy.float32)
INDICES = numpy.array([0, 2, 1, 0, 2, 1, 0, 1, 2], numpy.int32)


def _pair(v):
    return tuple(v) if isinstance(v, tuple) else (v, v)


def image(dtype=numpy.float64):
    size = N * C * H * W
    return (numpy.random.permutation(size) * (2.0 / size) - 1).reshape(N, C, H, W).astype(
        dtype)


# -- references -----------------------------------------------------------------------
def pooling_reference(x, boxes, indices, outsize, scale, kind, extra, empty):
    """Max (or mean) of the integer bins of each region."""
    oh, ow = _pair(outsize)
    y = numpy.full((len(boxes), x.shape[1], oh, ow), empty, numpy.float64)
    for r, (box, b) in enumerate(zip(boxes, indices)):
        y0, x0, y1, x1 = (int(numpy.round(v * scale)) for v in box.astype(numpy.float64))
        length_h, length_w = max(y1 - y0 + extra, 1), max(x1 - x0 + extra, 1)
        for i in range(oh):
            hlo = min(max(math.floor(i * length_h / oh) + y0, 0), x.shape[2])
            hhi = min(max(math.ceil((i + 1) * length_h / oh) + y0, 0), x.shape[2])
            for j in range(ow):
                wlo = min(max(math.floor(j * length_w / ow) + x0, 0), x.shape[3])
                whi = min(max(math.ceil((j + 1) * length_w / ow) + x0, 0), x.shape[3])
                if hhi <= hlo or whi <= wlo:
                    continue
                patch = x[b, :, hlo:hhi, wlo:whi].reshape(x.shape[1], -1)
                y[r, :, i, j] = patch.max(1) if kind == 'max' else patch.mean(1)
    return y.astype(x.dtype)


def bilinear(img, y, x):
    """Detectron-style bilinear read of ``img`` (C, H, W); None beyond one pixel out."""
    h, w = img.shape[1:]
    if y < -1 or y > h or x < -1 or x > w:
        return None
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * img[:, y0, x0] + (1 - ly) * lx * img[:, y0, x1]
            + ly * (1 - lx) * img[:, y1, x0] + ly * lx * img[:, y1, x1])


def align_reference(x, boxes, indices, outsize, scale, ratio, kind):
    oh, ow = _pair(outsize)
    ratio = _pair(ratio)
    y = numpy.zeros((len(boxes), x.shape[1], oh, ow))
    xd = x.astype(numpy.float64)
    for r, (box, b) in enumerate(zip(boxes, indices)):
        y0, x0, y1, x1 = box.astype(numpy.float64) * scale
        rh, rw = max(y1 - y0, 1.0), max(x1 - x0, 1.0)
        bh, bw = rh / oh, rw / ow
        gh = ratio[0] if ratio[0] is not None else math.ceil(rh / oh)
        gw = ratio[1] if ratio[1] is not None else math.ceil(rw / ow)
        for i in range(oh):
            for j in range(ow):
                values = []
                for iy in range(gh):
                    for ix in range(gw):
                        yy = y0 + i * bh + (iy + 0.5) * bh / gh
                        xx = x0 + j * bw + (ix + 0.5) * bw / gw
                        values.append(bilinear(xd[b], yy, xx))
                if kind == 'max':
                    found = [v for v in values if v is not None]
                    y[r, :, i, j] = numpy.max(found, axis=0) if found else -numpy.inf
                else:
                    y[r, :, i, j] = sum(v for v in values if v is not None) / (gh * gw)
    return y.astype(x.dtype)


def call(kind, x, boxes, indices, outsize, scale, ratio=None):
    if kind == 'roi_pooling_2d':
        boxes, indices = getattr(boxes, 'array', boxes), getattr(indices, 'array', indices)
        rois = numpy.concatenate([indices[:, None].astype(boxes.dtype),
                                  boxes[:, [1, 0, 3, 2]]], axis=1)
        oh, ow = _pair(outsize)
        return F.roi_pooling_2d(x, rois, oh, ow, scale)
    if kind in ('roi_max_align_2d', 'roi_average_align_2d'):
        return getattr(F, kind)(x, boxes, indices, outsize, scale, ratio)
    return getattr(F, kind)(x, boxes, indices, outsize, scale)


def reference(kind, x, boxes, indices, outsize, scale, ratio=None):
    if kind == 'roi_pooling_2d':
        return pooling_reference(x, boxes, indices, outsize, scale, 'max', 1, 0.0)
    if kind == 'roi_max_pooling_2d':
        return pooling_reference(x, boxes, indices, outsize, scale, 'max', 0, -numpy.inf)
    if kind == 'roi_average_pooling_2d':
        return pooling_reference(x, boxes, indices, outsize, scale, 'mean', 0, 0.0)
    return align_reference(x, boxes, indices, outsize, scale, ratio,
                           'max' if kind == 'roi_max_align_2d' else 'mean')


POOLINGS = ['roi_pooling_2d', 'roi_max_pooling_2d', 'roi_average_pooling_2d']
ALIGNS = ['roi_max_align_2d', 'roi_average_align_2d']
SETTINGS = [(3, 0.6, None), ((5, 4), 1.0, 2), (2, 2.0, (None, 3)),
            ((numpy.int32(3), numpy.int32(2)), numpy.float32(0.6), (1, numpy.int32(2)))]


@pytest.mark.parametrize('kind', POOLINGS + ALIGNS)
@pytest.mark.parametrize('outsize,scale,ratio', SETTINGS)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_roi_forward(kind, outsize, scale, ratio, dtype):
    x = image(dtype)
    y = call(kind, x, BOXES, INDICES, outsize, scale, ratio)
    expected = reference(kind, x, BOXES, INDICES, outsize, scale, ratio)
    assert y.dtype == dtype and y.shape == expected.shape
    tol = {'atol': 2e-3, 'rtol': 2e-3} if dtype == numpy.float16 else {'atol': 1e-6,
                                                                          'rtol': 1e-5}
    numpy.testing.assert_allclose(y.array, expected, **tol)


def _finite(kind):
    def f(x, boxes, indices):
        y = call(kind, x, boxes, indices, 3, 0.6, 2)
        return F.where(numpy.isinf(y.array), numpy.zeros(y.shape, y.dtype), y)
    return f


@pytest.mark.parametrize('kind', POOLINGS + ALIGNS)
def test_roi_gradients(kind):
    x = image()
    f = _finite(kind)
    y = f(x, BOXES, INDICES)
    gy = numpy.random.uniform(-1, 1, y.shape)
    gradient_check.check_backward(f, (x, BOXES, INDICES), gy, no_grads=[False, True, True],
                                  atol=1e-5, rtol=1e-4)
    ggx = numpy.random.uniform(-1, 1, x.shape)
    gradient_check.check_double_backward(
        lambda x: f(x, BOXES, INDICES), x, gy, ggx, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('kind', POOLINGS + ALIGNS)
def test_roi_gradients_float32_and_no_gradient_to_the_regions(kind):
    x = chainer.Variable(image(numpy.float32))
    rois = chainer.Variable(BOXES)
    y = _finite(kind)(x, rois, INDICES)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert x.grad.dtype == numpy.float32 and rois.grad is None
    # every output's gradient lands inside the image it reads
    finite = numpy.isfinite(call(kind, x.array, BOXES, INDICES, 3, 0.6, 2).array)
    if kind.startswith('roi_max'):
        # each finite output reads one pixel (pooling) or bilinear weights summing to 1
        assert abs(x.grad.sum() - finite.sum()) < 1e-3 * finite.sum()


@pytest.mark.parametrize('kind', POOLINGS + ALIGNS)
def test_roi_no_regions(kind):
    x = chainer.Variable(image(numpy.float32))
    y = call(kind, x, numpy.zeros((0, 4), numpy.float32), numpy.zeros((0,), numpy.int32),
             (2, 3), 1.0)
    assert y.shape == (0, C, 2, 3)
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 0)


def test_roi_empty_bins():
    x = image(numpy.float32)
    outside = numpy.array([[20, 20, 30, 30]], numpy.float32)
    idx = numpy.zeros(1, numpy.int32)
    assert numpy.isneginf(F.roi_max_pooling_2d(x, outside, idx, 2, 1.0).array).all()
    assert (F.roi_average_pooling_2d(x, outside, idx, 2, 1.0).array == 0).all()
    assert numpy.isneginf(F.roi_max_align_2d(x, outside, idx, 2, 1.0).array).all()
    assert (F.roi_average_align_2d(x, outside, idx, 2, 1.0).array == 0).all()
    rois = numpy.array([[0, 20, 20, 30, 30]], numpy.float32)
    assert (F.roi_pooling_2d(x, rois, 2, 2, 1.0).array == 0).all()


@pytest.mark.parametrize('call_,error,match', [
    (lambda x: F.roi_max_pooling_2d(x, BOXES[:, :3], INDICES, 2, 1.0), InvalidType,
     'ROIMaxPooling2D'),
    (lambda x: F.roi_average_pooling_2d(x, BOXES, INDICES.astype('f'), 2, 1.0), InvalidType,
     'ROIAveragePooling2D'),
    (lambda x: F.roi_average_align_2d(x, BOXES, INDICES[:2], 2, 1.0), InvalidType,
     'ROIAverageAlign2D'),
    (lambda x: F.roi_max_align_2d(x[0], BOXES, INDICES, 2, 1.0), InvalidType,
     'ROIMaxAlign2D'),
    (lambda x: F.roi_pooling_2d(x, BOXES, 2, 2, 1.0), InvalidType, 'ROIPooling2D'),
    (lambda x: F.roi_max_pooling_2d(x, BOXES, INDICES, 0, 1.0), ValueError, 'outsize'),
    (lambda x: F.roi_max_pooling_2d(x, BOXES, INDICES, (2, 2, 2), 1.0), ValueError,
     'outsize'),
    (lambda x: F.roi_max_pooling_2d(x, BOXES, INDICES, 2.5, 1.0), TypeError, 'outsize'),
    (lambda x: F.roi_average_align_2d(x, BOXES, INDICES, 2, 1.0, 0), ValueError,
     'sampling_ratio'),
    (lambda x: F.roi_average_align_2d(x, BOXES, INDICES, 2, '1'), TypeError,
     'spatial_scale'),
])
def test_roi_bad_arguments(call_, error, match):
    with pytest.raises(error, match=match):
        call_(image(numpy.float32))
