"""The convolution-family links share one constructor base (connection._conv_base)."""

import numpy
import pytest

import chainer.links as L
from chainer import initializers
from chainer.links.connection._conv_base import ConvolutionBase
from chainer.links.connection.deformable_convolution_2d import DeformableConvolution2DSampler

# link factory (eager in_channels=4), expected W shape, transposed
_CASES = {
    'Convolution2D': (lambda i: L.Convolution2D(i, 6, 3, groups=2), (6, 2, 3, 3)),
    'ConvolutionND': (lambda i: L.ConvolutionND(3, i, 6, (1, 2, 3), groups=2),
                      (6, 2, 1, 2, 3)),
    'Convolution1D': (lambda i: L.Convolution1D(i, 6, 5), (6, 4, 5)),
    'Deconvolution2D': (lambda i: L.Deconvolution2D(i, 6, (2, 3), groups=2), (4, 3, 2, 3)),
    'DeconvolutionND': (lambda i: L.DeconvolutionND(2, i, 6, 3, groups=2), (4, 3, 3, 3)),
    'DilatedConvolution2D': (lambda i: L.DilatedConvolution2D(i, 6, 3, dilate=2),
                             (6, 4, 3, 3)),
    'DeformableConvolution2DSampler': (
        lambda i: DeformableConvolution2DSampler(i, 6, 3,
                                                   initialW=initializers.Normal()),
        (6, 4, 3, 3)),
}


@pytest.mark.parametrize('name', sorted(_CASES))
def test_eager_and_lazy_filters_have_the_layout_and_the_same_draw(name):
    make, shape = _CASES[name]
    numpy.random.seed(3)
    eager = make(4)
    numpy.random.seed(3)
    lazy = make(None)
    assert isinstance(eager, ConvolutionBase)
    assert eager.W.shape == shape
    assert lazy.W.array is None
    assert eager.b.shape == (6,) == lazy.b.shape
    lazy._initialize_lazily(numpy.zeros((1, 4) + (5,) * (len(shape) - 2), numpy.float32))
    numpy.testing.assert_array_equal(lazy.W.array, eager.W.array)


def test_w_is_drawn_before_b():
    numpy.random.seed(0)
    link = L.Convolution2D(3, 2, 2, initial_bias=initializers.Normal(1.0))
    numpy.random.seed(0)
    w = numpy.random.normal(0, numpy.sqrt(1 / 12), (2, 3, 2, 2))
    b = numpy.random.normal(0, 1.0, 2)
    numpy.testing.assert_allclose(link.W.array, w, rtol=1e-6)
    numpy.testing.assert_allclose(link.b.array, b, rtol=1e-6)


@pytest.mark.parametrize('make', [
    lambda: L.Convolution2D(4, 5, 3, groups=2),
    lambda: L.Deconvolution2D(3, 4, 3, groups=2),
    lambda: L.ConvolutionND(1, 3, 4, 3, groups=2),
    lambda: L.DeconvolutionND(1, 4, 5, 3, groups=2),
])
def test_channels_not_divisible_by_groups(make):
    with pytest.raises(ValueError, match='divisible by the number of groups'):
        make()


def test_ungrouped_links_have_no_groups_attribute_and_nobias():
    link = L.DilatedConvolution2D(None, 3, 2, nobias=True)
    assert not hasattr(link, 'groups') and link.b is None
    assert not hasattr(DeformableConvolution2DSampler(2, 3, 2), 'groups')


@pytest.mark.parametrize('make, w_shape, b_shape', [
    (lambda i, nb: L.DepthwiseConvolution2D(i, 2, 3, nobias=nb), (2, 4, 3, 3), (8,)),
    (lambda i, nb: L.LocalConvolution2D(i, 2, 5 if i else None, 3, nobias=nb),
     (2, 3, 3, 4, 3, 3), (2, 3, 3)),
])
def test_lazy_bias_links(make, w_shape, b_shape):
    link = make(4, False)
    assert (link.W.shape, link.b.shape, link.nobias) == (w_shape, b_shape, False)
    numpy.testing.assert_array_equal(link.b.array, 0)
    lazy = make(None, True)
    assert (lazy.W.array, lazy.b, lazy.nobias) == (None, None, True)
    lazy(numpy.zeros((1, 4, 5, 5), numpy.float32))
    assert lazy.W.shape == w_shape
