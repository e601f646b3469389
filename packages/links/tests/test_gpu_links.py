"""GPU tests of links (need CuPy and a CUDA device: ``nox -s gpu``)."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')


def test_linear_on_gpu_matches_cpu():
    cpu = L.Linear(3, 2)
    gpu = cpu.copy('copy').to_device('@cupy:0')
    assert gpu.xp is cupy and isinstance(gpu.W.array, cupy.ndarray)
    x = numpy.random.randn(4, 3).astype('f')
    y_gpu = gpu(cupy.asarray(x))
    numpy.testing.assert_allclose(cupy.asnumpy(y_gpu.array), cpu(x).array, rtol=1e-5,
                                  atol=1e-6)
    gpu.to_cpu()
    assert isinstance(gpu.W.array, numpy.ndarray)


def test_lazy_linear_initializes_on_its_device():
    model = chainer.Sequential(L.Linear(None, 4), F.relu).to_device('@cupy:0')
    y = model(cupy.ones((2, 5), 'f'))
    assert isinstance(model[0].W.array, cupy.ndarray) and model[0].W.shape == (4, 5)
    assert y.shape == (2, 4)


def test_classifier_backward_on_gpu():
    model = L.Classifier(L.Linear(3, 4)).to_gpu(0)
    x = cupy.random.randn(5, 3).astype('f')
    t = cupy.array([0, 1, 2, 3, 0], 'i')
    model.cleargrads()
    model(x, t).backward()
    assert isinstance(model.predictor.W.grad, cupy.ndarray)
