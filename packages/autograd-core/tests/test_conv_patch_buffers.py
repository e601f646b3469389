"""The CPU convolution keeps its forward's patch matrix for the filter gradient and reuses
the buffers of patch matrices (chainer.functions.connection._conv_core)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import _conv_core


def _data(seed=0, shape=(4, 3, 9, 8), w_shape=(5, 3, 3, 3)):
    rng = numpy.random.default_rng(seed)
    return (rng.standard_normal(shape).astype(numpy.float32),
            rng.standard_normal(w_shape).astype(numpy.float32),
            rng.standard_normal(w_shape[0]).astype(numpy.float32))


def _grads(x, W, b, **kw):
    xv, Wv, bv = chainer.Variable(x), chainer.Variable(W), chainer.Variable(b)
    y = F.convolution_2d(xv, Wv, bv, **kw)
    F.sum(y * y).backward()
    return y.array, xv.grad, Wv.grad, bv.grad


@pytest.mark.parametrize('kw', [dict(pad=1), dict(stride=2, pad=1), dict(dilate=2),
                                dict(pad=(0, 2), stride=(2, 1))])
def test_kept_patches_give_the_same_gradients_as_copying_them_again(kw, monkeypatch):
    x, W, b = _data()
    kept = _grads(x, W, b, **kw)
    monkeypatch.setattr(_conv_core, 'KEEP_PATCHES_BYTES', 0)  # copied in both passes
    copied = _grads(x, W, b, **kw)
    for a, e in zip(kept, copied, strict=True):
        numpy.testing.assert_array_equal(a, e)


def test_the_forward_keeps_the_patches_only_for_a_backward(monkeypatch):
    x, W, b = _data()
    y = F.convolution_2d(chainer.Variable(x), chainer.Variable(W), b, pad=1)
    kept = y.creator._kept
    assert kept is not None and kept.flags.c_contiguous
    assert kept.shape[0] == 1 and kept.shape[1] == 3 * 3 * 3  # (groups, c * k, n * p)
    with chainer.no_backprop_mode():
        y = F.convolution_2d(x, W, b, pad=1)
    assert y.creator is None
    monkeypatch.setattr(_conv_core, 'KEEP_PATCHES_BYTES', 0)
    y = F.convolution_2d(chainer.Variable(x), chainer.Variable(W), b, pad=1)
    assert y.creator._kept is None  # too large to keep: the filter gradient copies again


def test_buffers_are_given_back_and_taken_again(monkeypatch):
    pool = _conv_core._PatchBuffers()
    monkeypatch.setattr(_conv_core, '_patch_buffers', pool)
    x, W, b = _data()
    xv, Wv = chainer.Variable(x), chainer.Variable(W)
    y = F.convolution_2d(xv, Wv, b, pad=1)
    col = y.creator._kept
    F.sum(y).backward()
    assert y.creator._kept is None
    # the filter gradient gave the buffer back: the next forward writes into it
    y2 = F.convolution_2d(xv, Wv, b, pad=1)
    assert numpy.shares_memory(y2.creator._kept, col)


def test_a_kept_patch_matrix_without_a_filter_gradient_is_given_back(monkeypatch):
    pool = _conv_core._PatchBuffers()
    monkeypatch.setattr(_conv_core, '_patch_buffers', pool)
    x, W, b = _data()
    xv = chainer.Variable(x)
    y = F.convolution_2d(xv, W, b, pad=1)  # W is an array: no filter gradient wanted
    col = y.creator._kept
    F.sum(y).backward()
    assert xv.grad is not None
    assert numpy.shares_memory(pool.take(col.size, col.dtype), col)


def test_the_pool_keeps_at_most_its_limit(monkeypatch):
    pool = _conv_core._PatchBuffers()
    monkeypatch.setattr(_conv_core, 'POOLED_PATCHES_BYTES', 1000)
    a, b = numpy.empty(200, numpy.float32), numpy.empty(200, numpy.float32)
    pool.give(a)
    pool.give(b)  # 1600 bytes: over the limit, dropped
    assert pool.take(200, numpy.float32) is a
    fresh = pool.take(200, numpy.float32)
    assert fresh is not a and fresh is not b
    pool.give(numpy.empty((10, 20), numpy.float32)[:, :5])  # not a whole buffer: dropped
    assert pool.take(50, numpy.float32) is not None


def test_double_backprop_and_second_backward_copy_the_patches_again():
    x, W, b = _data()
    xv, Wv = chainer.Variable(x), chainer.Variable(W)
    y = F.convolution_2d(xv, Wv, b, pad=1)
    loss = F.sum(y * y)
    loss.backward(retain_grad=True)
    first = Wv.grad.copy()
    Wv.cleargrad()
    loss.backward()  # the kept patches were used once: copied again now
    numpy.testing.assert_array_equal(Wv.grad, first)
    gW, = chainer.grad([F.sum(F.convolution_2d(xv, Wv, b, pad=1) ** 2)], [Wv],
                       enable_double_backprop=True)
    numpy.testing.assert_allclose(gW.array, first, rtol=1e-5)


@pytest.mark.parametrize('shape,w_shape,groups', [
    ((2, 4, 5, 6, 5), (6, 2, 3, 3, 3), 2), ((3, 6, 11), (4, 3, 3), 2),
    ((2, 4, 7, 7), (4, 1, 3, 3), 4)])
def test_kept_patches_of_nd_and_grouped_convolutions(shape, w_shape, groups, monkeypatch):
    x, W, b = _data(1, shape, w_shape)

    def grads():
        xv, Wv = chainer.Variable(x), chainer.Variable(W)
        y = F.convolution_nd(xv, Wv, b, pad=1, groups=groups)
        F.sum(y * y).backward()
        return y.array, xv.grad, Wv.grad

    kept = grads()
    monkeypatch.setattr(_conv_core, 'KEEP_PATCHES_BYTES', 0)
    for a, e in zip(kept, grads(), strict=True):
        numpy.testing.assert_array_equal(a, e)
