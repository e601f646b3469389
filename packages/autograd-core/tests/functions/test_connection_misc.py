"""Depthwise, local and deformable convolutions, bilinear, embed_id and shift,
against direct NumPy references."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import local_convolution_2d
from chainer.utils.type_check import InvalidType


def _pad(x, ph, pw):
    return numpy.pad(x.astype(numpy.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)))


def _depthwise_ref(x, W, b, s, p):
    m, c, kh, kw = W.shape
    xp = _pad(x, p, p)
    oh = (xp.shape[2] - kh) // s + 1
    ow = (xp.shape[3] - kw) // s + 1
    y = numpy.zeros((x.shape[0], c * m, oh, ow))
    for ci, j, i, q in itertools.product(range(c), range(m), range(kh), range(kw)):
        y[:, ci * m + j] += W[j, ci, i, q] * xp[:, ci, i:i + s * (oh - 1) + 1:s,
                                                q:q + s * (ow - 1) + 1:s]
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


@pytest.mark.parametrize('nobias, m', [(False, 2), (True, 1)])
def test_depthwise_convolution(fc, dtype, nobias, m):
    x = fc.uniform((2, 3, 5, 4), dtype)
    W = fc.uniform((m, 3, 3, 3), dtype)
    b = None if nobias else fc.uniform((3 * m,), dtype)
    args = (x, W) if nobias else (x, W, b)

    def f(*a):
        return F.depthwise_convolution_2d(*a, stride=2, pad=1)

    fc.check_forward(f, args, _depthwise_ref(x, W, b, 2, 1).astype(dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, args, dtype)
        fc.check_double_backward(f, args, dtype)


def test_depthwise_errors():
    with pytest.raises(InvalidType):
        F.depthwise_convolution_2d(numpy.zeros((1, 3, 4, 4), 'f'), numpy.zeros((2, 2, 3, 3), 'f'))
    with pytest.raises(InvalidType):
        F.depthwise_convolution_2d(numpy.zeros((1, 3, 4, 4), 'f'),
                                   numpy.zeros((2, 3, 3, 3), 'f'), numpy.zeros(3, 'f'))
    with pytest.raises(ValueError, match='larger than the input'):
        F.depthwise_convolution_2d(numpy.zeros((1, 3, 2, 2), 'f'), numpy.zeros((1, 3, 3, 3), 'f'))


def _local_ref(x, W, b, s):
    o, oh, ow, c, kh, kw = W.shape
    y = numpy.zeros((x.shape[0], o, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        patch = x[:, :, i * s:i * s + kh, j * s:j * s + kw].astype(numpy.float64)
        y[:, :, i, j] = numpy.einsum('nckl,ockl->no', patch, W[:, i, j])
    return y if b is None else y + b


def test_local_convolution(fc, dtype):
    x = fc.uniform((2, 3, 5, 4), dtype)
    W = fc.uniform((4, 2, 2, 3, 2, 2), dtype)
    b = fc.uniform((4, 2, 2), dtype)

    def f(*a):
        return F.local_convolution_2d(*a, stride=(2, 2))

    fc.check_forward(f, (x, W, b), _local_ref(x, W, b, 2).astype(dtype), dtype)
    fc.check_forward(f, (x, W), _local_ref(x, W, None, 2).astype(dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x, W, b), dtype)
        fc.check_double_backward(f, (x, W, b), dtype)
    node = local_convolution_2d.LocalConvolution2DFunction(2)
    assert (node.sy, node.sx) == (2, 2)


def test_local_convolution_errors():
    x = numpy.zeros((1, 3, 5, 4), 'f')
    with pytest.raises(InvalidType):  # output size 2x2 does not match 5x4 with a 2x2 kernel
        F.local_convolution_2d(x, numpy.zeros((4, 3, 3, 3, 2, 2), 'f'), stride=2)
    with pytest.raises(InvalidType):  # channels
        F.local_convolution_2d(x, numpy.zeros((4, 2, 2, 2, 2, 2), 'f'), stride=2)
    with pytest.raises(ValueError, match='stride'):
        F.local_convolution_2d(x, numpy.zeros((4, 2, 2, 3, 2, 2), 'f'), stride=0)


def _bilinear_sample(img, y, x):
    # img (c, h, w) sampled at float (y, x), zero outside
    h, w = img.shape[1:]
    y0, x0 = int(numpy.floor(y)), int(numpy.floor(x))
    out = numpy.zeros(img.shape[0])
    for yy, xx in itertools.product((y0, y0 + 1), (x0, x0 + 1)):
        if 0 <= yy < h and 0 <= xx < w:
            out += (1 - abs(y - yy)) * (1 - abs(x - xx)) * img[:, yy, xx]
    return out


def _deformable_ref(x, offset, W, b, s, p):
    o, c, kh, kw = W.shape
    xp = _pad(x, p, p)
    oh, ow = offset.shape[2:]
    y = numpy.zeros((x.shape[0], o, oh, ow))
    for n, i, j in itertools.product(range(x.shape[0]), range(oh), range(ow)):
        for ki, kj in itertools.product(range(kh), range(kw)):
            k = ki * kw + kj
            v = _bilinear_sample(xp[n], i * s + ki + offset[n, kh * kw + k, i, j],
                                 j * s + kj + offset[n, k, i, j])
            y[n, :, i, j] += W[:, :, ki, kj].dot(v)
    return y + b.reshape(1, -1, 1, 1)


def test_deformable_convolution(fc):
    x = fc.uniform((2, 2, 4, 5), numpy.float64)
    W = fc.uniform((3, 2, 2, 3), numpy.float64)
    b = fc.uniform((3,), numpy.float64)
    offset = fc.uniform((2, 12, 3, 3), numpy.float64, -1.3, 1.3)

    def f(x, offset, W, b):
        return F.deformable_convolution_2d_sampler(x, offset, W, b, stride=2, pad=1)

    fc.check_forward(f, (x, offset, W, b), _deformable_ref(x, offset, W, b, 2, 1),
                     numpy.float64)
    # zero offsets: an ordinary convolution
    zero = numpy.zeros_like(offset)
    numpy.testing.assert_allclose(f(x, zero, W, b).array,
                                  F.convolution_2d(x, W, b, 2, 1).array, atol=1e-12)
    # keep the sampling points away from pixel centers (kinks of the interpolation)
    offset = numpy.floor(offset) + 0.3 + 0.4 * (offset - numpy.floor(offset))
    fc.check_backward(f, (x, offset, W, b), numpy.float64)


def test_deformable_convolution_errors():
    x, W = numpy.zeros((1, 2, 4, 4), 'f'), numpy.zeros((3, 2, 2, 2), 'f')
    with pytest.raises(ValueError, match='channels'):
        F.deformable_convolution_2d_sampler(x, numpy.zeros((1, 6, 3, 3), 'f'), W)


@pytest.mark.parametrize('full', [True, False])
def test_bilinear(fc, full):
    e1 = fc.uniform((3, 2, 2), numpy.float64)
    e2 = fc.uniform((3, 5), numpy.float64)
    W = fc.uniform((4, 5, 6), numpy.float64)
    m1 = e1.reshape(3, 4)
    expected = numpy.einsum('ij,ik,jkl->il', m1, e2, W)
    args = (e1, e2, W)
    if full:
        V1, V2, b = fc.uniform((4, 6), 'd'), fc.uniform((5, 6), 'd'), fc.uniform((6,), 'd')
        expected = expected + m1.dot(V1) + e2.dot(V2) + b
        args += (V1, V2, b)
    fc.check_forward(F.bilinear, args, expected, numpy.float64)
    fc.check_backward(F.bilinear, args, numpy.float64)
    fc.check_double_backward(F.bilinear, args, numpy.float64)
    y = F.bilinear(*[a.astype(numpy.float32) for a in args])
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)


def test_bilinear_errors():
    e1, e2, W = numpy.zeros((3, 2), 'f'), numpy.zeros((3, 4), 'f'), numpy.zeros((2, 4, 5), 'f')
    with pytest.raises(ValueError, match='None'):
        F.bilinear(e1, e2, W, numpy.zeros((2, 5), 'f'))
    with pytest.raises(InvalidType):
        F.bilinear(e1, e2, numpy.zeros((2, 3, 5), 'f'))
    with pytest.raises(InvalidType):
        F.bilinear(e1, numpy.zeros((2, 4), 'f'), W)


@pytest.mark.parametrize('ignore_label', [None, -1, 2])
@pytest.mark.parametrize('x_dtype', [numpy.int32, numpy.int64])
def test_embed_id(fc, dtype, ignore_label, x_dtype):
    x = numpy.array([[0, 1, 2], [2, 4, 0]], x_dtype)
    if ignore_label == -1:
        x[1, 1] = -1
    W = fc.uniform((5, 3), dtype)
    expected = W[numpy.where(x == ignore_label, 0, x)]
    expected[x == ignore_label] = 0
    fc.check_forward(lambda W: F.embed_id(x, W, ignore_label), (W,), expected, dtype)
    if dtype != numpy.float16:
        fc.check_backward(lambda W: F.embed_id(x, W, ignore_label), (W,), dtype)
        fc.check_double_backward(lambda W: F.embed_id(x, W, ignore_label), (W,), dtype)
    # repeated IDs accumulate their gradients; ignored ones get none
    Wv = chainer.Variable(W)
    F.sum(F.embed_id(x, Wv, ignore_label)).backward()
    counts = numpy.bincount(x[x != ignore_label].ravel(), minlength=5)
    numpy.testing.assert_allclose(Wv.grad, numpy.repeat(counts[:, None], 3, 1))


def test_embed_id_errors():
    W = numpy.zeros((3, 2), 'f')
    with pytest.raises(InvalidType):
        F.embed_id(numpy.zeros(2, 'f'), W)
    with pytest.raises(InvalidType):
        F.embed_id(numpy.zeros(2, 'i'), numpy.zeros(3, 'f'))
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='len'):
            F.embed_id(numpy.array([0, 3], 'i'), W)
        F.embed_id(numpy.array([0, -1], 'i'), W, ignore_label=-1)


def _shift_ref(x, kh, kw, dy, dx):
    n, c, h, w = x.shape
    groups = kh * kw
    size = c // groups
    y = numpy.zeros_like(x)
    for i in range(groups):
        # the last group takes the remainder and the center (no shift)
        g = {(groups - 1) // 2: groups - 1, groups - 1: (groups - 1) // 2}.get(i, i)
        ky, kx = g // kw - kh // 2, g % kw - kw // 2
        chans = range(i * size, c if i == groups - 1 else (i + 1) * size)
        for ch, r, q in itertools.product(chans, range(h), range(w)):
            rr, qq = r - ky * dy, q - kx * dx
            if 0 <= rr < h and 0 <= qq < w:
                y[:, ch, r, q] = x[:, ch, rr, qq]
    return y


@pytest.mark.parametrize('ksize, dilate, c', [(3, 1, 9), ((1, 3), 2, 4), ((5, 3), (1, 2), 17)])
def test_shift(fc, dtype, ksize, dilate, c):
    x = fc.uniform((2, c, 4, 5), dtype)
    kh, kw = (ksize, ksize) if isinstance(ksize, int) else ksize
    dy, dx = (dilate, dilate) if isinstance(dilate, int) else dilate

    def f(x):
        return F.shift(x, ksize=ksize, dilate=dilate)

    fc.check_forward(f, (x,), _shift_ref(x, kh, kw, dy, dx), dtype)
    fc.check_forward(f, (fc.noncontiguous(x),), _shift_ref(x, kh, kw, dy, dx), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_shift_errors():
    with pytest.raises(ValueError, match='odd'):
        F.shift(numpy.zeros((1, 9, 3, 3), 'f'), ksize=2)
    with pytest.raises(InvalidType):
        F.shift(numpy.zeros((1, 8, 3, 3), 'f'), ksize=3)
    with pytest.raises(ValueError, match='dilate'):
        F.shift(numpy.zeros((1, 9, 3, 3), 'f'), dilate=0)
