"""Batch normalization through cuDNN (cudnn-frontend) against the NumPy path.

Needs a CUDA device, CuPy and nvidia-cudnn-frontend (``nox -s gpu``)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import _cudnn_bn
from chainer.functions.normalization.batch_normalization import BatchNormalization

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')
pytest.importorskip('cudnn')

TOL = {'f': 1e-4, 'e': 1e-2}


def _spy(monkeypatch):
    """Record each call of chainer._cudnn_bn's graphs: (name, whether cuDNN ran it)."""
    calls = []
    for name in ('forward', 'inference', 'backward'):
        real = getattr(_cudnn_bn, name)

        def run(*args, _real=real, _name=name):
            out = _real(*args)
            calls.append((_name, out is not None))
            return out

        monkeypatch.setattr(_cudnn_bn, name, run)
    return calls


def _data(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    c = shape[1]
    x = (rng.standard_normal(shape) * 3 + 2).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, c).astype(dtype)
    beta = rng.standard_normal(c).astype(dtype)
    gy = rng.standard_normal(shape).astype(dtype)
    return x, gamma, beta, gy


def _train(xp, x, gamma, beta, gy, eps=2e-5, decay=0.7):
    """The output, running mean and variance after one step (from 0 and 1), the batch's
    mean and inverse standard deviation and the three gradients, as NumPy arrays."""
    c = x.shape[1]
    mean, var = xp.zeros(c, 'f'), xp.ones(c, 'f')
    node = BatchNormalization(eps, mean, var, decay)
    xv, gv, bv = (chainer.Variable(xp.asarray(a)) for a in (x, gamma, beta))
    y, = node.apply((xv, gv, bv))
    y.grad = xp.asarray(gy)
    y.backward()
    return [chainer.backend.CpuDevice().send(a) for a in (
        y.array, mean, var, node.mean, node.inv_std, xv.grad, gv.grad, bv.grad)]


# few values per channel in some (6, 12): the biased and the unbiased variance differ
SHAPES = [(6, 8), (4, 8, 3), (2, 8, 3, 3), (8, 16, 7, 7), (2, 8, 2, 3, 4)]


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', ['f', 'e'])
def test_training_matches_numpy(shape, dtype, monkeypatch):
    x, gamma, beta, gy = _data(shape, dtype)
    want = _train(numpy, x, gamma, beta, gy)
    calls = _spy(monkeypatch)
    with chainer.using_config('use_cudnn', 'always'):
        got = _train(cupy, x, gamma, beta, gy)
    assert calls == [('forward', True), ('backward', True)], calls
    for w, g in zip(want, got, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        numpy.testing.assert_allclose(g, w, rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', ['f', 'e'])
def test_fixed_statistics_match_numpy(shape, dtype, monkeypatch):
    x, gamma, beta, _ = _data(shape, dtype)
    mean = numpy.linspace(-1, 3, shape[1]).astype(dtype)
    var = numpy.linspace(0.5, 9, shape[1]).astype(dtype)
    want = F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=1e-3).array
    calls = _spy(monkeypatch)
    with chainer.using_config('use_cudnn', 'always'):
        got = F.fixed_batch_normalization(*(cupy.asarray(a) for a in (x, gamma, beta, mean,
                                                                      var)), eps=1e-3)
    assert calls == [('inference', True)], calls
    assert got.dtype == want.dtype
    numpy.testing.assert_allclose(cupy.asnumpy(got.array), want, rtol=TOL[dtype],
                                  atol=TOL[dtype])


def test_odd_channel_counts_are_right_or_declined(monkeypatch):
    x, gamma, beta, gy = _data((4, 3, 5, 5), 'e')
    want = _train(numpy, x, gamma, beta, gy)
    calls = _spy(monkeypatch)
    with chainer.using_config('use_cudnn', 'always'):
        got = _train(cupy, x, gamma, beta, gy)
    assert [name for name, _ in calls] == ['forward', 'backward']
    for w, g in zip(want, got, strict=True):
        numpy.testing.assert_allclose(g, w, rtol=1e-2, atol=1e-2)


def test_strided_input(monkeypatch):
    x, gamma, beta, _ = _data((6, 8, 4, 4), 'f')
    view = cupy.asarray(x)[::2]
    want = F.batch_normalization(x[::2], gamma, beta).array
    calls = _spy(monkeypatch)
    with chainer.using_config('use_cudnn', 'always'):
        got = F.batch_normalization(view, cupy.asarray(gamma), cupy.asarray(beta)).array
    assert calls == [('forward', True)]
    numpy.testing.assert_allclose(cupy.asnumpy(got), want, rtol=1e-4, atol=1e-4)


def test_deterministic_setting_gives_the_same_bits(monkeypatch):
    x, gamma, beta, gy = _data((8, 16, 9, 9), 'f', seed=3)
    calls = _spy(monkeypatch)
    with chainer.using_config('use_cudnn', 'always'), \
            chainer.using_config('cudnn_deterministic', True):
        first = _train(cupy, x, gamma, beta, gy)
        second = _train(cupy, x, gamma, beta, gy)
    assert all(ran for _, ran in calls) and len(calls) == 4
    for a, b in zip(first, second, strict=True):
        numpy.testing.assert_array_equal(a, b)


def test_auto_takes_cudnn_for_large_inputs_only(monkeypatch):
    calls = _spy(monkeypatch)
    small = cupy.arange(2 * 8 * 4 * 4, dtype='f').reshape(2, 8, 4, 4)
    F.batch_normalization(small, cupy.ones(8, 'f'), cupy.zeros(8, 'f'))
    assert calls == []
    big = cupy.random.default_rng(0).standard_normal((64, 64, 64, 64), dtype='f')
    assert big.size == _cudnn_bn.AUTO_MIN_ELEMENTS
    y = F.batch_normalization(big, cupy.ones(64, 'f'), cupy.zeros(64, 'f'))
    assert calls == [('forward', True)]
    means = y.array.mean(axis=(0, 2, 3))
    assert float(abs(means).max()) < 1e-4


def test_use_cudnn_never_keeps_the_cupy_path(monkeypatch):
    calls = _spy(monkeypatch)
    x, gamma, beta, gy = _data((2, 8, 3, 3), 'f')
    with chainer.using_config('use_cudnn', 'never'):
        _train(cupy, x, gamma, beta, gy)
    assert calls == []
