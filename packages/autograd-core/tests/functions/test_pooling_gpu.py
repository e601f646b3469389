"""GPU variants of the pooling checks: each pooling and ROI function runs on CuPy arrays
(without cuDNN), matches its NumPy result, and gives the same gradients."""

import numpy
import pytest

import chainer
import chainer.functions as F

pytestmark = pytest.mark.gpu


def _distinct(shape, dtype=numpy.float32):
    size = int(numpy.prod(shape))
    rng = numpy.random.RandomState(0)
    return (rng.permutation(size) * (2.0 / size) - 1).reshape(shape).astype(dtype)


def _compare(fn, xs, rtol=1e-5, atol=1e-6):
    cupy = pytest.importorskip('cupy')
    rng = numpy.random.RandomState(1)
    with chainer.using_config('use_cudnn', 'never'):
        cpu = [chainer.Variable(x, requires_grad=x.dtype.kind == 'f') for x in xs]
        gpu = [chainer.Variable(cupy.asarray(x), requires_grad=x.dtype.kind == 'f')
               for x in xs]
        yc, yg = fn(*cpu), fn(*gpu)
        assert isinstance(yg.array, cupy.ndarray) and yg.shape == yc.shape
        numpy.testing.assert_allclose(cupy.asnumpy(yg.array), yc.array, rtol=rtol, atol=atol)
        gy = rng.uniform(-1, 1, yc.shape).astype(yc.dtype)
        finite = numpy.isfinite(yc.array)
        gy[~finite] = 0
        yc.grad, yg.grad = gy, cupy.asarray(gy)
        yc.backward()
        yg.backward()
    for c, g in zip(cpu[:1], gpu[:1]):
        numpy.testing.assert_allclose(cupy.asnumpy(g.grad), c.grad, rtol=rtol, atol=atol)


@pytest.mark.parametrize('fn', [
    lambda x: F.max_pooling_2d(x, 2),
    lambda x: F.max_pooling_2d(x, 3, 2, 1),
    lambda x: F.max_pooling_nd(x, (2, 3), 1, (1, 0), cover_all=False),
    lambda x: F.average_pooling_2d(x, 3, 2, 1),
    lambda x: F.average_pooling_nd(x, 3, 2, 1, pad_value=None),
    lambda x: F.unpooling_2d(x, 2),
    lambda x: F.unpooling_nd(x, 3, 2, 1, cover_all=False),
    lambda x: F.spatial_pyramid_pooling_2d(x, 3, 'max'),
])
def test_pooling_gpu(fn):
    _compare(fn, [_distinct((2, 3, 9, 8))])


def test_max_pooling_indexes_and_upsampling_gpu():
    cupy = pytest.importorskip('cupy')
    x = _distinct((2, 3, 6, 7))
    _, idx_c = F.max_pooling_2d(x, 3, 2, 1, return_indices=True)
    _, idx_g = F.max_pooling_2d(cupy.asarray(x), 3, 2, 1, return_indices=True)
    assert isinstance(idx_g, cupy.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(idx_g), idx_c)
    y = _distinct(idx_c.shape)
    up_c = F.upsampling_2d(y, idx_c, 3, 2, 1, (6, 7))
    up_g = F.upsampling_2d(cupy.asarray(y), idx_g, 3, 2, 1, (6, 7))
    numpy.testing.assert_allclose(cupy.asnumpy(up_g.array), up_c.array)


BOXES = numpy.array([[1, 1, 7, 7], [2, 6, 12, 8], [-2, 3, 11, 6], [3.3, 2.2, 4.4, 5.1]],
                    numpy.float32)
INDICES = numpy.array([0, 1, 1, 0], numpy.int32)


@pytest.mark.parametrize('fn', [
    lambda x, r, i: F.roi_max_pooling_2d(x, r, i, 3, 0.6),
    lambda x, r, i: F.roi_average_pooling_2d(x, r, i, (3, 2), 1.0),
    lambda x, r, i: F.roi_max_align_2d(x, r, i, 3, 0.6, 2),
    lambda x, r, i: F.roi_average_align_2d(x, r, i, (2, 3), 1.0, None),
])
def test_roi_gpu(fn):
    _compare(fn, [_distinct((2, 3, 12, 8)), BOXES, INDICES], rtol=1e-4, atol=1e-5)


def test_roi_pooling_2d_gpu():
    rois = numpy.concatenate([INDICES[:, None].astype('f'), BOXES[:, [1, 0, 3, 2]]], axis=1)
    _compare(lambda x, r: F.roi_pooling_2d(x, r, 3, 2, 0.6), [_distinct((2, 3, 12, 8)), rois])
