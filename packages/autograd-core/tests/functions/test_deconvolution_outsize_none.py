"""deconvolution_2d/_nd with None entries in ``outsize``: computed from the input, as v7."""

import numpy
import pytest

import chainer.functions as F
from chainer import gradient_check
from chainer.utils import conv


def _inputs(seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(2, 3, 4, 5).astype(numpy.float64)
    W = rng.randn(3, 2, 3, 2).astype(numpy.float64)
    return x, W


@pytest.mark.parametrize('stride', [1, 2])
def test_none_entries_are_computed(stride):
    x, W = _inputs()
    auto = F.deconvolution_2d(x, W, stride=stride).array
    numpy.testing.assert_array_equal(
        F.deconvolution_2d(x, W, stride=stride, outsize=(None, None)).array, auto)
    h = conv.get_deconv_outsize(4, 3, stride, 0)
    w_given = conv.get_deconv_outsize(5, 2, stride, 0, cover_all=True)
    y = F.deconvolution_2d(x, W, stride=stride, outsize=(None, w_given))
    assert y.shape == (2, 2, h, w_given)
    # the given width equals a full outsize with the computed height
    full = F.deconvolution_2d(x, W, stride=stride, outsize=(h, w_given))
    numpy.testing.assert_array_equal(y.array, full.array)


def test_nd_all_none_and_gradient():
    x, W = _inputs(1)
    y = F.deconvolution_nd(x, W, outsize=(None, None))
    numpy.testing.assert_array_equal(y.array, F.deconvolution_nd(x, W).array)
    gradient_check.check_backward(
        lambda x, W: F.deconvolution_nd(x, W, stride=2, outsize=(None, 10)), (x, W),
        numpy.random.RandomState(3).randn(2, 2, 9, 10), atol=1e-5, rtol=1e-4)


def test_outsize_of_wrong_length_is_refused():
    x, W = _inputs()
    with pytest.raises(ValueError, match='outsize'):
        F.deconvolution_2d(x, W, outsize=(None, None, None))
