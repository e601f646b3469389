"""The compiled layout kernels of 2-d convolutions give the NumPy path's numbers bit for
bit (outputs with and without bias, and every gradient)."""

import numpy
import pytest

import chainer
import chainer.functions as F

pytest.importorskip('numba', reason='the compiled kernels need Numba (the jit extra)')

CASES = [  # (x shape, out channels, ksize, stride, pad, dilate, groups)
    ((2, 3, 8, 8), 4, 3, 1, 1, 1, 1),      # "wide" patch rows
    ((3, 2, 7, 9), 5, 3, 2, 1, 1, 1),      # strided: plain patches
    ((2, 4, 9, 6), 6, (3, 2), 1, (2, 0), (2, 1), 2),  # dilated, grouped, uneven
    ((1, 2, 5, 5), 3, 1, 1, 0, 1, 1),      # 1x1: no patches
    ((2, 1, 1, 1), 2, 1, 1, 1, 1, 1),      # 1x1 images, padded
    ((0, 2, 4, 4), 3, 3, 1, 1, 1, 1),      # an empty batch
]


def _run(mode, x, W, b, gy, stride, pad, dilate, groups):
    xv, Wv = chainer.Variable(x.copy()), chainer.Variable(W.copy())
    bv = None if b is None else chainer.Variable(b.copy())
    with chainer.using_config('use_numba', mode):
        y = F.convolution_2d(xv, Wv, bv, stride, pad, dilate=dilate, groups=groups)
        y.grad = gy
        y.backward()
    grads = [xv.grad, Wv.grad] + ([] if bv is None else [bv.grad])
    return [y.array] + grads


@pytest.mark.filterwarnings('ignore:invalid value:RuntimeWarning')  # inf * 0 in products
@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.float16])
@pytest.mark.parametrize('bias', [True, False])
@pytest.mark.parametrize('data', ['random', 'special', 'strided'])
def test_convolution_2d_is_bit_identical(case, dtype, bias, data):
    shape, o, ksize, stride, pad, dilate, groups = case
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    kh, kw = (ksize, ksize) if isinstance(ksize, int) else ksize
    W = rng.standard_normal((o, shape[1] // groups, kh, kw)).astype(dtype)
    b = rng.standard_normal(o).astype(dtype) if bias else None
    if data == 'special' and x.size:  # wide columns must not change these either
        x.flat[::7] = numpy.inf
        x.flat[3::11] = numpy.nan
        x.flat[5::13] = -0.0
    with chainer.using_config('use_numba', 'never'):
        y_shape = F.convolution_2d(x, W, b, stride, pad, dilate=dilate, groups=groups).shape
    gy = rng.standard_normal(y_shape).astype(dtype)
    if data == 'strided':  # a non-contiguous output gradient
        gy = numpy.repeat(gy, 2, axis=-1)[..., ::2]
    if data == 'special' and gy.size:
        gy.flat[::5] = -0.0
    ref = _run('never', x, W, b, gy, stride, pad, dilate, groups)
    got = _run('always', x, W, b, gy, stride, pad, dilate, groups)
    for r, g in zip(ref, got, strict=True):
        assert g.dtype == r.dtype and g.shape == r.shape
        assert g.tobytes() == r.tobytes()


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_deconvolution_and_depthwise_are_bit_identical(dtype):
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((2, 3, 5, 6)).astype(dtype)

    def run(mode):
        xv = chainer.Variable(x.copy())
        with chainer.using_config('use_numba', mode):
            W = rng_w.standard_normal((3, 4, 3, 3)).astype(dtype)
            y = F.deconvolution_2d(xv, W, numpy.ones(4, dtype), 1, 1)
            Wd = rng_w.standard_normal((2, 3, 3, 3)).astype(dtype)
            z = F.depthwise_convolution_2d(y[:, :3], Wd, numpy.arange(6, dtype=dtype),
                                           1, 1)
            z.grad = numpy.ones_like(z.array)
            z.backward()
        return y.array, z.array, xv.grad

    rng_w = numpy.random.default_rng(2)
    ref = run('never')
    rng_w = numpy.random.default_rng(2)
    got = run('always')
    for r, g in zip(ref, got, strict=True):
        assert g.tobytes() == r.tobytes()


def test_the_kernels_run_on_2d_float_arrays_only(monkeypatch):
    from chainer.functions.connection import _conv_kernels
    calls = []
    for name in ('to_output', 'from_output'):
        real = getattr(_conv_kernels, name)
        monkeypatch.setattr(_conv_kernels, name,
                            lambda *a, real=real, name=name: calls.append(name) or real(*a))

    def conv(x, W, fn=F.convolution_2d):
        y = fn(chainer.Variable(x), W, pad=1)
        y.grad = numpy.ones_like(y.array)
        y.backward()

    with chainer.using_config('use_numba', 'always'):
        conv(numpy.ones((1, 2, 4, 4), numpy.float16), numpy.ones((3, 2, 3, 3), numpy.float16))
        assert calls == ['to_output']  # the products' float32; float16's gradient: NumPy
        calls.clear()
        conv(numpy.ones((1, 2, 4, 4, 4), numpy.float32),
             numpy.ones((3, 2, 3, 3, 3), numpy.float32), F.convolution_nd)
        assert not calls
        conv(numpy.ones((1, 2, 4, 4), numpy.float32), numpy.ones((3, 2, 3, 3), numpy.float32))
        assert calls == ['to_output', 'from_output']
