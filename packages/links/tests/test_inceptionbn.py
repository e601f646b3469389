"""Tests of L.InceptionBN: branches, shapes, dtypes and invalid architectures."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def _make(**kwargs):
    args = dict(in_channels=3, out1=2, proj3=2, out3=3, proj33=2, out33=4, pooltype='max',
                proj_pool=5, stride=1)
    args.update(kwargs)
    return L.InceptionBN(**args)


@pytest.mark.parametrize('pooltype', ['max', 'avg'])
def test_output_channels_and_backward(pooltype):
    link = _make(pooltype=pooltype)
    x = chainer.Variable(numpy.random.randn(4, 3, 6, 6).astype('f'))
    y = link(x)
    assert y.shape == (4, 2 + 3 + 4 + 5, 6, 6)
    F.sum(y * y).backward()
    assert x.grad is not None and link.conv33b.W.grad is not None
    assert link.proj3.b is None  # convolutions without bias


def test_branches_match_their_definition():
    link = _make(out1=0, proj_pool=None, pooltype='avg', stride=2)
    x = numpy.random.randn(2, 3, 5, 5).astype('f')
    y = link(x)
    relu = F.relu
    h3 = relu(link.conv3n(link.conv3(relu(link.proj3n(link.proj3(x))))))
    h33 = relu(link.proj33n(link.proj33(x)))
    h33 = relu(link.conv33bn(link.conv33b(relu(link.conv33an(link.conv33a(h33))))))
    pool = F.average_pooling_2d(x, 3, stride=2, pad=1)
    expected = numpy.concatenate([h3.array, h33.array, pool.array], axis=1)
    assert y.shape == (2, 3 + 4 + 3, 3, 3)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    assert not hasattr(link, 'conv1') and not hasattr(link, 'poolp')


def test_invalid_architectures():
    with pytest.raises(NotImplementedError, match='pooltype'):
        _make(pooltype='median')
    with pytest.raises(AssertionError):
        _make(proj_pool=None)
    with pytest.raises(AssertionError):
        _make(stride=2)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_batch_normalization_dtype_follows_config(dtype):
    with chainer.using_config('dtype', dtype):
        link = _make()
    assert link.conv1n.beta.dtype == dtype and link.poolpn.gamma.dtype == dtype
