"""Image functions: depth2space, space2depth, im2col (and chainer.utils.conv),
resize_images, spatial_transformer_grid, spatial_transformer_sampler."""

import math

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import conv
from chainer.utils.type_check import InvalidType

F64 = numpy.float64


def test_depth2space_space2depth_docs_examples():
    X = numpy.arange(24).reshape(1, 4, 2, 3).astype(numpy.float32)
    y = F.depth2space(X, 2)
    numpy.testing.assert_array_equal(y.array, [[[[0, 6, 1, 7, 2, 8],
                                                  [12, 18, 13, 19, 14, 20],
                                                  [3, 9, 4, 10, 5, 11],
                                                  [15, 21, 16, 22, 17, 23]]]])
    X = numpy.arange(24).reshape(1, 1, 4, 6).astype(numpy.float32)
    y = F.space2depth(X, 2)
    numpy.testing.assert_array_equal(y.array, [[[[0, 2, 4], [12, 14, 16]],
                                                 [[1, 3, 5], [13, 15, 17]],
                                                 [[6, 8, 10], [18, 20, 22]],
                                                 [[7, 9, 11], [19, 21, 23]]]])


def _d2s_ref(x, r):
    b, crr, h, w = x.shape
    c = crr // (r * r)
    y = numpy.empty((b, c, h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for ci in range(c):
                y[:, ci, i::r, j::r] = x[:, (i * r + j) * c + ci]
    return y


def test_depth2space_and_back(fc, dtype):
    x = fc.uniform((2, 8, 2, 3), dtype)
    y = fc.check_forward(lambda x: F.depth2space(x, 2), (x,), _d2s_ref(x, 2), dtype)[0]
    fc.check_forward(lambda y: F.space2depth(y, 2), (y.array,), x, dtype)
    if dtype != numpy.float16:
        for fn, inp in ((lambda x: F.depth2space(x, 2), x), (lambda y: F.space2depth(y, 2),
                                                             y.array)):
            fc.check_backward(fn, (inp,), dtype)
            fc.check_double_backward(fn, (inp,), dtype)


def test_depth2space_errors():
    with pytest.raises(InvalidType, match='Depth2Space'):
        F.depth2space(numpy.zeros((1, 3, 2, 2), 'f'), 2)
    with pytest.raises(InvalidType):
        F.depth2space(numpy.zeros((4, 2, 2), 'f'), 2)
    with pytest.raises(InvalidType, match='Space2Depth'):
        F.space2depth(numpy.zeros((1, 1, 3, 2), 'f'), 2)
    with pytest.raises(ValueError):
        F.space2depth(numpy.zeros((1, 1, 2, 2), 'f'), 0)


def _im2col_ref(x, kh, kw, sy, sx, ph, pw, cover_all, dy, dx):
    n, c, h, w = x.shape
    oh = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    ow = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    y = numpy.zeros((n, c, kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for a in range(oh):
                for b in range(ow):
                    r = a * sy + i * dy - ph
                    q = b * sx + j * dx - pw
                    if 0 <= r < h and 0 <= q < w:
                        y[:, :, i, j, a, b] = x[:, :, r, q]
    return y.reshape(n, c * kh * kw, oh, ow)


@pytest.mark.parametrize('ksize,stride,pad,cover_all,dilate', [
    (2, 1, 0, False, 1), ((3, 2), (2, 1), (1, 0), False, 1), (3, 2, 1, True, 1),
    (2, 1, 1, False, 2), ((2, 3), 3, (0, 2), True, (1, 2))])
def test_im2col(fc, dtype, ksize, stride, pad, cover_all, dilate):
    x = fc.uniform((2, 2, 5, 4), dtype)
    k = ksize if isinstance(ksize, tuple) else (ksize,) * 2
    s = stride if isinstance(stride, tuple) else (stride,) * 2
    p = pad if isinstance(pad, tuple) else (pad,) * 2
    d = dilate if isinstance(dilate, tuple) else (dilate,) * 2
    expected = _im2col_ref(x, k[0], k[1], s[0], s[1], p[0], p[1], cover_all, d[0], d[1])
    f = lambda x: F.im2col(x, ksize, stride, pad, cover_all, dilate)  # noqa: E731
    fc.check_forward(f, (x,), expected, dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_im2col_noncontiguous_and_errors(fc):
    x = fc.noncontiguous(fc.uniform((1, 2, 3, 4), F64))
    fc.check_forward(lambda x: F.im2col(x, 2), (x,), _im2col_ref(x, 2, 2, 1, 1, 0, 0, False,
                                                                  1, 1))
    fc.check_backward(lambda x: F.im2col(x, 2, 1, 1), (x,), F64)
    with pytest.raises(InvalidType, match='Im2Col'):
        F.im2col(numpy.zeros((2, 3, 3)), 2)
    with pytest.raises(ValueError):
        F.im2col(numpy.zeros((1, 1, 2, 2)), 3)
    with pytest.raises(ValueError):
        F.im2col(numpy.zeros((1, 1, 2, 2)), 1, stride=0)


def test_conv_utils():
    assert conv.get_conv_outsize(5, 3, 2, 1) == 3
    assert conv.get_conv_outsize(6, 3, 2, 0) == 2
    assert conv.get_conv_outsize(6, 3, 2, 0, cover_all=True) == 3
    assert conv.get_conv_outsize(7, 3, 1, 0, d=2) == 3
    assert conv.get_deconv_outsize(3, 3, 2, 1) == 5
    assert conv.get_deconv_outsize(3, 3, 2, 0, cover_all=True) == 6
    for size, k, s, p in [(5, 3, 2, 1), (8, 2, 2, 0), (7, 3, 1, 1)]:
        o = conv.get_conv_outsize(size, k, s, p)
        assert conv.get_deconv_outsize(o, k, s, p) <= size
    rng = numpy.random.RandomState(1)
    img = rng.uniform(size=(2, 3, 6, 5))
    col = conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0, pval=-1.0)
    assert col.shape == (2, 3, 3, 2, 3, 4)
    assert not col.flags.writeable
    assert col[0, 0, 0, 0, 0, 0] == -1.0
    assert numpy.shares_memory(conv.im2col_cpu(img, 2, 2, 1, 1, 0, 0), img)
    # col2im is the adjoint of im2col: <im2col(x), c> == <x, col2im(c)>
    c = rng.uniform(size=col.shape)
    zero_pad = conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0)
    back = conv.col2im_cpu(c, 2, 1, 1, 0, 6, 5)
    assert back.shape == img.shape
    numpy.testing.assert_allclose((zero_pad * c).sum(), (img * back).sum())
    nd = conv.im2col_nd(rng.uniform(size=(1, 1, 4, 4, 4)), 2, 2, 0)
    assert nd.shape == (1, 1, 2, 2, 2, 2, 2, 2)
    c3 = rng.uniform(size=nd.shape)
    assert conv.col2im_nd(c3, 2, 0, (4, 4, 4)).shape == (1, 1, 4, 4, 4)


def _resize_ref(x, oh, ow, mode, align_corners):
    n, c, h, w = x.shape

    def coords(o, size, out):
        if mode == 'nearest':
            i = min(int(math.floor(o * size / out)), size - 1)
            return i, i, 0.0
        if align_corners:
            s = o * (size - 1) / (out - 1) if out > 1 else 0.0
        else:
            s = min(max((o + 0.5) * size / out - 0.5, 0.0), size - 1)
        i0 = int(math.floor(s))
        i1 = min(i0 + 1, size - 1)
        return i0, i1, s - i0

    y = numpy.zeros((n, c, oh, ow))
    for a in range(oh):
        v0, v1, wv = coords(a, h, oh)
        for b in range(ow):
            u0, u1, wu = coords(b, w, ow)
            y[:, :, a, b] = ((1 - wv) * (1 - wu) * x[:, :, v0, u0] + (1 - wv) * wu
                             * x[:, :, v0, u1] + wv * (1 - wu) * x[:, :, v1, u0]
                             + wv * wu * x[:, :, v1, u1])
    return y.astype(x.dtype)


@pytest.mark.parametrize('shape,out,mode,align', [
    ((3, 4), (5, 7), 'bilinear', True), ((3, 4), (2, 3), 'bilinear', True),
    ((3, 4), (6, 5), 'bilinear', False), ((4, 4), (2, 3), 'bilinear', False),
    ((3, 4), (6, 9), 'nearest', True), ((4, 6), (2, 3), 'nearest', False),
    ((1, 3), (1, 4), 'bilinear', True)])
def test_resize_images(fc, dtype, shape, out, mode, align):
    x = fc.uniform((2, 2) + shape, dtype)
    f = lambda x: F.resize_images(x, out, mode=mode, align_corners=align)  # noqa: E731
    fc.check_forward(f, (x,), _resize_ref(x.astype(F64), *out, mode, align).astype(dtype),
                     dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_resize_images_corners_and_errors(fc):
    x = fc.uniform((1, 1, 3, 4), numpy.float32)
    y = F.resize_images(x, (7, 9)).array
    numpy.testing.assert_allclose(y[0, 0, [0, 0, -1, -1], [0, -1, 0, -1]],
                                  x[0, 0, [0, 0, -1, -1], [0, -1, 0, -1]], rtol=1e-6)
    assert F.resize_images(numpy.zeros((0, 2, 3, 3), 'f'), (2, 2)).shape == (0, 2, 2, 2)
    with pytest.raises(ValueError):
        F.resize_images(x, (2, 2), mode='bicubic')
    with pytest.raises(ValueError):
        F.resize_images(x, (0, 2))
    with pytest.raises(InvalidType):
        F.resize_images(numpy.zeros((3, 4), 'f'), (2, 2))
    with pytest.raises(InvalidType, match='ResizeImages'):
        F.resize_images(numpy.zeros((1, 1, 3, 4), 'i'), (2, 2))


def test_spatial_transformer_grid(fc, dtype):
    theta = fc.uniform((2, 2, 3), dtype)
    h, w = 3, 4
    ys, xs = numpy.meshgrid(numpy.linspace(-1, 1, h), numpy.linspace(-1, 1, w), indexing='ij')
    expected = numpy.zeros((2, 2, h, w))
    for n in range(2):
        for k in range(2):
            expected[n, k] = theta[n, k, 0] * xs + theta[n, k, 1] * ys + theta[n, k, 2]
    f = lambda t: F.spatial_transformer_grid(t, (h, w))  # noqa: E731
    fc.check_forward(f, (theta,), expected.astype(dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (theta,), dtype)
        fc.check_double_backward(f, (theta,), dtype)


def test_spatial_transformer_grid_identity_and_errors():
    theta = numpy.array([[[1, 0, 0], [0, 1, 0]]], numpy.float32)
    g = F.spatial_transformer_grid(theta, (2, 3)).array
    numpy.testing.assert_allclose(g[0, 0], [[-1, 0, 1], [-1, 0, 1]])
    numpy.testing.assert_allclose(g[0, 1], [[-1, -1, -1], [1, 1, 1]])
    with pytest.raises(InvalidType, match='SpatialTransformerGrid'):
        F.spatial_transformer_grid(numpy.zeros((1, 3, 3), 'f'), (2, 2))
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_grid(theta, (2, 2), use_cudnn='never')
    with pytest.raises(TypeError):
        F.spatial_transformer_grid(theta, (2, 2), foo=1)


def _sampler_ref(x, grid):
    n, c, h, w = x.shape
    _, _, oh, ow = grid.shape
    y = numpy.zeros((n, c, oh, ow))

    def pix(b, r, q):
        return x[b, :, r, q] if 0 <= r < h and 0 <= q < w else 0.0

    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                u = (grid[b, 0, i, j] + 1) * (w - 1) / 2
                v = (grid[b, 1, i, j] + 1) * (h - 1) / 2
                u0, v0 = int(math.floor(u)), int(math.floor(v))
                du, dv = u - u0, v - v0
                y[b, :, i, j] = ((1 - dv) * (1 - du) * pix(b, v0, u0)
                                 + (1 - dv) * du * pix(b, v0, u0 + 1)
                                 + dv * (1 - du) * pix(b, v0 + 1, u0)
                                 + dv * du * pix(b, v0 + 1, u0 + 1))
    return y


def test_spatial_transformer_sampler(fc, dtype):
    x = fc.uniform((2, 3, 4, 5), dtype)
    grid = fc.uniform((2, 2, 3, 2), dtype, -1.3, 1.3)
    # keep the sampling points away from pixel boundaries (kinks of bilinear sampling)
    for size, k in ((5, 0), (4, 1)):
        c = (grid[:, k].astype(F64) + 1) * (size - 1) / 2
        frac = c - numpy.floor(c)
        c = numpy.floor(c) + numpy.clip(frac, 0.15, 0.85)
        grid[:, k] = (c * 2 / (size - 1) - 1).astype(dtype)
    expected = _sampler_ref(x.astype(F64), grid.astype(F64)).astype(dtype)
    fc.check_forward(F.spatial_transformer_sampler, (x, grid), expected, dtype,
                     **({'atol': 5e-3, 'rtol': 5e-2} if dtype == numpy.float16 else {}))
    if dtype != numpy.float16:
        fc.check_backward(F.spatial_transformer_sampler, (x, grid), dtype)
        fc.check_double_backward(F.spatial_transformer_sampler, (x, grid), dtype)


def test_spatial_transformer_identity_and_errors(fc):
    x = fc.uniform((1, 2, 3, 4), numpy.float32)
    theta = numpy.array([[[1, 0, 0], [0, 1, 0]]], numpy.float32)
    grid = F.spatial_transformer_grid(theta, (3, 4))
    y = F.spatial_transformer_sampler(x, grid)
    numpy.testing.assert_allclose(y.array, x, atol=1e-6)
    far = numpy.full((1, 2, 1, 1), 5.0, numpy.float32)
    assert F.spatial_transformer_sampler(x, far).array.sum() == 0
    with pytest.raises(InvalidType, match='SpatialTransformerSampler'):
        F.spatial_transformer_sampler(x, numpy.zeros((1, 3, 2, 2), 'f'))
    with pytest.raises(InvalidType):
        F.spatial_transformer_sampler(x, numpy.zeros((1, 2, 2, 2), 'd'))
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_sampler(x, far, use_cudnn='never')
    v = chainer.Variable(x)
    g = chainer.Variable(far)
    F.sum(F.spatial_transformer_sampler(v, g)).backward()
    assert (v.grad == 0).all() and (g.grad == 0).all()
