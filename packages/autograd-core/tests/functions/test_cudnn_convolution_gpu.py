"""Convolutions through cuDNN (cudnn-frontend) against the im2col path and NumPy.

Needs a CUDA device, CuPy and nvidia-cudnn-frontend (``nox -s gpu``)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import _cudnn

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')
pytest.importorskip('cudnn')

CASES = [  # (ndim, n, c, o, size, k, stride, pad, dilate, groups)
    (2, 4, 3, 8, 9, 3, 1, 1, 1, 1),
    (2, 2, 4, 6, 11, 3, 2, 2, 2, 2),
    (2, 3, 6, 6, 7, 3, 1, 1, 1, 6),
    (1, 2, 3, 5, 13, 3, 2, 1, 1, 1),
    (3, 2, 2, 4, 5, 3, 1, 1, 1, 1),
]


def _spy(monkeypatch):
    calls = []
    real = _cudnn.run

    def run(op, *args):
        out = real(op, *args)
        calls.append((op, out is not None))
        return out

    monkeypatch.setattr(_cudnn, 'run', run)
    return calls


def _conv_and_grads(xp, x, W, b, gy, case, deconv):
    nd, _, _, _, _, _, s, p, d, g = case
    xv, Wv, bv = (chainer.Variable(xp.asarray(a)) for a in (x, W, b))
    if deconv:
        y = F.deconvolution_nd(xv, Wv, bv, stride=s, pad=p, dilate=d, groups=g)
    else:
        y = F.convolution_nd(xv, Wv, bv, stride=s, pad=p, dilate=d, groups=g)
    y.grad = xp.asarray(gy[tuple(slice(0, n) for n in y.shape)]) if gy is not None else \
        xp.ones_like(y.array)
    y.backward()
    return [chainer.backend.CpuDevice().send(a) for a in (y.array, xv.grad, Wv.grad, bv.grad)]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', ['f', 'd'])
@pytest.mark.parametrize('deconv', [False, True])
def test_cudnn_matches_numpy(case, dtype, deconv, monkeypatch):
    nd, n, c, o, size, k, s, p, d, g = case
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((n, c) + (size,) * nd).astype(dtype)
    if deconv:
        W = rng.standard_normal((c, o // g) + (k,) * nd).astype(dtype)
        b = rng.standard_normal(o // g * g).astype(dtype)
    else:
        W = rng.standard_normal((o, c // g) + (k,) * nd).astype(dtype)
        b = rng.standard_normal(o).astype(dtype)
    want = _conv_and_grads(numpy, x, W, b, None, case, deconv)
    calls = _spy(monkeypatch)
    with chainer.using_config('use_cudnn', 'always'):
        got = _conv_and_grads(cupy, x, W, b, None, case, deconv)
    assert calls and all(ok for _, ok in calls), calls
    assert {op for op, _ in calls} == {'fprop', 'dgrad', 'wgrad'}
    tol = 1e-4 if dtype == 'f' else 1e-10
    for w, a in zip(want, got, strict=True):
        numpy.testing.assert_allclose(a, w, rtol=tol, atol=tol)


def test_auto_takes_cudnn_for_large_convolutions_only(monkeypatch):
    calls = _spy(monkeypatch)
    small = F.convolution_2d(cupy.ones((2, 3, 8, 8), 'f'), cupy.ones((4, 3, 3, 3), 'f'))
    big_x = cupy.ones((64, 64, 32, 32), 'f') / 100
    big = F.convolution_2d(big_x, cupy.ones((128, 64, 3, 3), 'f') / 100, pad=1)
    assert calls == [('fprop', False), ('fprop', True)]
    assert float(small.array[0, 0, 0, 0]) == 27.0
    assert abs(float(big.array[0, 0, 5, 5]) - 64 * 9 * 1e-4) < 1e-5


def test_use_cudnn_never_takes_im2col(monkeypatch):
    calls = _spy(monkeypatch)
    x = cupy.ones((2, 3, 5, 5), 'f')
    W = cupy.ones((4, 3, 3, 3), 'f')
    with chainer.using_config('use_cudnn', 'never'):
        y = F.convolution_2d(x, W, pad=1)
    assert calls == []
    assert float(y.array[0, 0, 2, 2]) == 27.0


def test_cover_all_falls_back_to_im2col(monkeypatch):
    calls = _spy(monkeypatch)
    x = numpy.random.default_rng(1).standard_normal((1, 2, 6, 6)).astype('f')
    W = numpy.random.default_rng(2).standard_normal((3, 2, 3, 3)).astype('f')
    want = F.convolution_2d(x, W, stride=2, cover_all=True).array
    with chainer.using_config('use_cudnn', 'always'):
        got = F.convolution_2d(cupy.asarray(x), cupy.asarray(W), stride=2,
                               cover_all=True).array
    assert calls == [('fprop', False)]
    numpy.testing.assert_allclose(cupy.asnumpy(got), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('config', [{'cudnn_deterministic': True}, {'autotune': True},
                                    {'use_cudnn_tensor_core': 'never'}])
def test_settings_give_the_same_result(config, monkeypatch):
    _cudnn.clear_plans()
    rng = numpy.random.default_rng(3)
    x = rng.standard_normal((8, 16, 12, 12)).astype('f')
    W = rng.standard_normal((32, 16, 3, 3)).astype('f')
    want = _conv_and_grads(numpy, x, W, numpy.zeros(32, 'f'), None,
                           (2, 8, 16, 32, 12, 3, 1, 1, 1, 1), False)
    calls = _spy(monkeypatch)
    (key, value), = config.items()
    with chainer.using_config('use_cudnn', 'always'), chainer.using_config(key, value):
        got = _conv_and_grads(cupy, x, W, numpy.zeros(32, 'f'), None,
                              (2, 8, 16, 32, 12, 3, 1, 1, 1, 1), False)
    assert all(ok for _, ok in calls) and len(calls) == 3
    for w, a in zip(want, got, strict=True):
        numpy.testing.assert_allclose(a, w, rtol=1e-4, atol=1e-4)


def test_half_precision_runs_on_cudnn(monkeypatch):
    calls = _spy(monkeypatch)
    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((2, 8, 8, 8)).astype('e')
    W = (rng.standard_normal((8, 8, 3, 3)) * 0.1).astype('e')
    with chainer.using_config('use_cudnn', 'always'):
        y = F.convolution_2d(cupy.asarray(x), cupy.asarray(W), pad=1)
    assert y.dtype == numpy.float16 and calls == [('fprop', True)]
    want = F.convolution_2d(x.astype('f'), W.astype('f'), pad=1).array
    numpy.testing.assert_allclose(cupy.asnumpy(y.array).astype('f'), want, rtol=2e-2,
                                  atol=2e-2)
