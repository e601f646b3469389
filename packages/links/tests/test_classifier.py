"""Tests of L.Classifier: loss, accuracy, reports and label keys."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def _data(n=6, d=4, k=3, seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.randn(n, d).astype('f'), rng.randint(0, k, n).astype(numpy.int32)


def _softmax_ce(y, t):
    y = y - y.max(1, keepdims=True)
    logp = y - numpy.log(numpy.exp(y).sum(1, keepdims=True))
    return -logp[numpy.arange(len(t)), t].mean()


def test_loss_and_accuracy_reported_and_stored():
    x, t = _data()
    model = L.Classifier(L.Linear(4, 3))
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    y = x @ model.predictor.W.array.T + model.predictor.b.array
    numpy.testing.assert_allclose(loss.array, _softmax_ce(y, t), rtol=1e-5)
    acc = (y.argmax(1) == t).mean()
    assert model.y is not None and model.loss is loss
    numpy.testing.assert_allclose(model.accuracy.array, acc)
    assert set(observation) == {'main/loss', 'main/accuracy'}
    reported = observation['main/accuracy']
    numpy.testing.assert_allclose(getattr(reported, 'array', reported), acc)


def test_compute_accuracy_false():
    x, t = _data()
    model = L.Classifier(L.Linear(4, 3))
    model.compute_accuracy = False
    reporter = chainer.Reporter()
    reporter.add_observer('m', model)
    obs = {}
    with reporter.scope(obs):
        model(x, t)
    assert model.accuracy is None
    assert set(obs) == {'m/loss'}


def test_custom_lossfun_and_label_key_int_and_str():
    x, t = _data()
    t_f = numpy.random.RandomState(1).rand(6, 1).astype('f')

    def predictor(a, b):
        return a[:, :1] + b[:, :1]

    class P(chainer.Link):
        def forward(self, a, b):
            return predictor(a, b)

    model = L.Classifier(P(), lossfun=F.mean_squared_error, label_key=0)
    model.compute_accuracy = False
    loss = model(t_f, x, x)
    numpy.testing.assert_allclose(loss.array, ((2 * x[:, :1] - t_f) ** 2).mean(), rtol=1e-5)
    model = L.Classifier(P(), lossfun=F.mean_squared_error, label_key='t')
    model.compute_accuracy = False
    loss = model(x, x, t=t_f)
    numpy.testing.assert_allclose(loss.array, ((2 * x[:, :1] - t_f) ** 2).mean(), rtol=1e-5)


def test_label_key_errors():
    with pytest.raises(TypeError):
        L.Classifier(L.Linear(2, 2), label_key=1.5)
    model = L.Classifier(L.Linear(4, 3), label_key=3)
    x, t = _data()
    with pytest.raises(ValueError, match='out of bounds'):
        model(x, t)
    model = L.Classifier(L.Linear(4, 3), label_key='label')
    with pytest.raises(ValueError, match='not found'):
        model(x, t=t)


def test_backward_populates_predictor_grads():
    x, t = _data()
    model = L.Classifier(L.Linear(4, 3))
    model.cleargrads()
    model(x, t).backward()
    assert model.predictor.W.grad is not None
    assert model.predictor.W.grad.shape == (3, 4)
    assert [n for n, _ in model.namedparams()] == ['/predictor/W', '/predictor/b']
