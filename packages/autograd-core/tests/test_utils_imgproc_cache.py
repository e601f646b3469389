"""chainer.utils.imgproc.oversample and chainer.utils.cache.cached_property."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import cache, imgproc


def test_oversample_crops_corners_centre_and_mirrors():
    images = numpy.arange(2 * 3 * 4 * 5, dtype=numpy.float64).reshape(2, 3, 4, 5)
    out = imgproc.oversample(images, (2, 3))
    assert out.shape == (20, 3, 2, 3) and out.dtype == numpy.float64
    for n, image in enumerate(images):
        expected = [image[:, :2, :3], image[:, :2, 2:], image[:, 2:, :3], image[:, 2:, 2:],
                    image[:, 1:3, 1:4]]
        for k, crop in enumerate(expected):
            numpy.testing.assert_array_equal(out[10 * n + k], crop)
            numpy.testing.assert_array_equal(out[10 * n + 5 + k], crop[:, :, ::-1])


def test_oversample_takes_a_list_and_keeps_dtype():
    images = [numpy.full((1, 3, 3), i, numpy.int32) for i in range(3)]
    out = imgproc.oversample(images, (3, 3))
    assert out.shape == (30, 1, 3, 3) and out.dtype == numpy.int32
    numpy.testing.assert_array_equal(out[20:].ravel(), numpy.full(90, 2))


@pytest.mark.parametrize('images, crop', [
    (numpy.zeros((2, 1, 4, 5)), (5, 3)),
    (numpy.zeros((2, 4, 5)), (2, 2)),
    ([numpy.zeros((1, 4, 5)), numpy.zeros((1, 5, 5))], (2, 2)),
    (numpy.zeros((1, 1, 4, 5)), (0, 2)),
])
def test_oversample_bad_input(images, crop):
    with pytest.raises(ValueError):
        imgproc.oversample(images, crop)


def test_cached_property_once_per_backprop_mode():
    calls = []

    class Model:
        def __init__(self, x):
            self.x = x

        @cache.cached_property
        def y(self):
            calls.append(chainer.config.enable_backprop)
            return F.sigmoid(self.x)

    m = Model(chainer.Variable(numpy.array([0.0, 1.0], numpy.float32)))
    y1 = m.y
    assert m.y is y1 and calls == [True]
    with chainer.no_backprop_mode():
        y2 = m.y
        assert m.y is y2 and y2.creator is None
    assert calls == [True, False]
    assert y1.creator is not None
    numpy.testing.assert_allclose(y1.array, 1 / (1 + numpy.exp(-numpy.array([0.0, 1.0]))),
                                  rtol=1e-6)
    other = Model(chainer.Variable(numpy.zeros(2, numpy.float32)))
    assert other.y is not y1
    with pytest.raises(AttributeError):
        m.y = 1


def test_cached_property_keeps_the_name_and_doc():
    class Model:
        @cache.cached_property
        def mean(self):
            """The mean."""
            return 1

    assert Model.mean.__name__ == 'mean'
    assert Model.mean.__doc__ == 'The mean.'
    assert isinstance(Model.mean, property) and Model().mean == 1
