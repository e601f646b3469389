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


def test_copies_of_a_gpu_link_stay_on_its_gpu():
    import copy
    import pickle

    model = L.Classifier(L.Convolution2D(2, 3, 3)).to_device('@cupy:0')
    model(cupy.ones((1, 2, 3, 3), 'f'), cupy.zeros((1, 1, 1), 'i'))
    for other in (copy.deepcopy(model), model.copy('copy'), pickle.loads(pickle.dumps(model))):
        assert other.device == model.device
        w, w0 = other.predictor.W.array, model.predictor.W.array
        assert isinstance(w, cupy.ndarray) and w.data.ptr != w0.data.ptr
        cupy.testing.assert_array_equal(w, w0)


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


@pytest.mark.parametrize('dtype', ['e', 'f', 'd'])
def test_lstm_sequence_on_gpu_matches_cpu(dtype):
    # L.LSTM's fused step: kernels for float32/64, the array code for float16
    rng = numpy.random.RandomState(1)
    with chainer.using_config('dtype', numpy.dtype(dtype)):
        cpu = L.LSTM(3, 4)
    gpu = cpu.copy('copy').to_device('@cupy:0')
    xs = [rng.uniform(-1, 1, (2, 3)).astype(dtype) for _ in range(3)]
    results = []
    for model, xp in ((cpu, numpy), (gpu, cupy)):
        model.reset_state()
        model.cleargrads()
        loss = sum(F.sum(model(xp.asarray(x)) ** 2) for x in xs)
        loss.backward()
        results.append([cupy.asnumpy(a) for a in (loss.array, model.h.array,
                                                  model.upward.W.grad, model.lateral.W.grad,
                                                  model.upward.b.grad)])
    tol = {'rtol': 2e-2, 'atol': 2e-2} if dtype == 'e' else {'rtol': 1e-5, 'atol': 1e-5}
    for got, want in zip(results[1], results[0]):
        numpy.testing.assert_allclose(got, want, **tol)
