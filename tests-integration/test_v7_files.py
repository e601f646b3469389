"""Files saved by Chainer 7.8.1 load here and training continues identically."""

import json
from pathlib import Path

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

DATA = Path(__file__).resolve().parent / 'data'


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def test_v7_model_and_adam_state_continue_training():
    model = L.Classifier(Net())
    optimizer = chainer.optimizers.Adam().setup(model)
    chainer.serializers.load_npz(str(DATA / 'v7_mlp.model'), model)
    chainer.serializers.load_npz(str(DATA / 'v7_mlp.opt'), optimizer)
    assert optimizer.t == 3
    x = numpy.random.RandomState(0).randn(6, 4).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 0, 1, 2], numpy.int32)
    optimizer.update(model, x, t)
    assert float(model(x, t).array) == pytest.approx(1.5696570873260498, rel=1e-6)


class LazyNet(Net):
    def __init__(self):
        chainer.Chain.__init__(self)
        with self.init_scope():
            self.l1 = L.Linear(5)
            self.l2 = L.Linear(3)


def test_v7_model_loads_into_lazy_links_under_a_path():
    model = L.Classifier(chainer.Sequential(L.Linear(5), F.relu, L.Linear(3)))
    with pytest.raises(KeyError):  # Sequential names its layers 0, 1, ...: strict reports it
        chainer.serializers.load_npz(str(DATA / 'v7_mlp.model'), model)
    net = LazyNet()
    assert net.l1.W.array is None
    chainer.serializers.load_npz(str(DATA / 'v7_mlp.model'), net, path='predictor/')
    assert net.l1.W.shape == (5, 4) and net.l2.b.shape == (3,)
    reference = L.Classifier(Net())
    chainer.serializers.load_npz(str(DATA / 'v7_mlp.model'), reference)
    numpy.testing.assert_array_equal(net.l1.W.array, reference.predictor.l1.W.array)


V7_OPTIMIZERS = DATA / 'v7_optimizers'
_LOSSES = json.loads((V7_OPTIMIZERS / 'losses.json').read_text())


@pytest.mark.parametrize('name', sorted(_LOSSES))
def test_v7_optimizer_state_loads_and_training_continues(name):
    # Written by tools/compat/make_v7_optimizer_files.py under Chainer 7.8.1: three
    # updates saved, the loss after a fourth one recorded.
    case = _LOSSES[name]
    numpy.random.seed(1)
    model = L.Classifier(Net())
    optimizer = getattr(chainer.optimizers, name)(**case['kwargs']).setup(model)
    chainer.serializers.load_npz(str(V7_OPTIMIZERS / f'{name}.model'), model)
    chainer.serializers.load_npz(str(V7_OPTIMIZERS / f'{name}.opt'), optimizer)
    assert optimizer.t == 3
    assert all(p.update_rule.t == 3 for p in model.params())
    x = numpy.random.RandomState(0).randn(6, 4).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 0, 1, 2], numpy.int32)
    optimizer.update(model, x, t)
    assert float(model(x, t).array) == pytest.approx(case['loss'], rel=1e-6)
