"""MLPConvolution2D's two call forms, and a sequence of input channels refused."""

import numpy
import pytest

from chainer import links


def test_short_form_reads_channels_and_ksize():
    mlp = links.MLPConvolution2D((4, 5), 3)
    y = mlp(numpy.zeros((2, 3, 6, 6), numpy.float32))
    assert y.shape == (2, 5, 4, 4)
    assert mlp[0].W.shape == (4, 3, 3, 3)


def test_full_form():
    mlp = links.MLPConvolution2D(3, (4, 5), 3)
    assert mlp[0].W.shape == (4, 3, 3, 3)
    assert mlp[1].W.shape == (5, 4, 1, 1)


def test_sequence_of_input_channels_refused():
    with pytest.raises(TypeError, match='in_channels'):
        links.MLPConvolution2D((3, 4), (4, 5), 3)
