"""chainer.utils.conv_nd: the v7 names (as_tuple, get_conv_outsize) and argument checks."""

import numpy
import pytest

from chainer.utils import conv_nd
from chainer.utils.error import ArgumentValueError


def test_as_tuple():
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple([1, 2, 3], 3) == (1, 2, 3)
    assert conv_nd.as_tuple(numpy.array([4, 5]), 2) == (4, 5)
    assert conv_nd.as_tuple(numpy.int64(3), 2) == (3, 3)
    with pytest.raises(ArgumentValueError, match='sequence of 3 ints'):
        conv_nd.as_tuple((1,), 3)


def test_get_conv_outsize_matches_im2col():
    img = numpy.random.uniform(-1, 1, (2, 3, 9, 7))
    col = conv_nd.im2col_nd(img, (3, 2), (2, 1), (1, 0))
    outs = tuple(conv_nd.get_conv_outsize(d, k, s, p)
                 for d, k, s, p in zip((9, 7), (3, 2), (2, 1), (1, 0)))
    assert col.shape == (2, 3, 3, 2) + outs == (2, 3, 3, 2, 5, 6)


@pytest.mark.parametrize('ksize, stride, pad', [((2,), (1, 1), (0, 0)),
                                                ((2, 2), (1,), (0, 0)),
                                                ((2, 2), (1, 1), (0, 0, 0))])
def test_im2col_nd_rejects_wrong_lengths(ksize, stride, pad):
    img = numpy.zeros((1, 1, 4, 3))
    # A ValueError, and the AssertionError v7 code expects.
    with pytest.raises(ValueError):
        conv_nd.im2col_nd_cpu(img, ksize, stride, pad)
    with pytest.raises(AssertionError):
        conv_nd.im2col_nd_cpu(img, ksize, stride, pad)


def test_col2im_nd_rejects_wrong_ranks_and_lengths():
    col = numpy.zeros((2, 3, 2, 2, 3, 2))
    with pytest.raises(ArgumentValueError, match=r'col must have 2 \+ 2 \* d axes'):
        conv_nd.col2im_nd_cpu(numpy.zeros((2, 3, 2, 3, 2)), (1, 1), (0, 0), (4, 3))
    for stride, pad, dims in [((1,), (0, 0), (4, 3)), ((1, 1), (0,), (4, 3)),
                              ((1, 1), (0, 0), (4,))]:
        with pytest.raises(ArgumentValueError):
            conv_nd.col2im_nd_cpu(col, stride, pad, dims)
    assert conv_nd.col2im_nd_cpu(col, (1, 1), (0, 0), (4, 3)).shape == (2, 3, 4, 3)
