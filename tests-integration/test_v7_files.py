"""Files saved by Chainer 7.8.1 load here and training continues identically."""

import importlib.util
import json
import warnings
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


def _v7_trainer_script():
    spec = importlib.util.spec_from_file_location(
        'make_v7_trainer_snapshot', DATA / 'make_v7_trainer_snapshot.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_v7_trainer_snapshot_resumes_to_v7s_parameters_and_log(tmp_path):
    # a trainer snapshot written by Chainer 7.8.1 at iteration 10 (updater, Adam with
    # weight decay, iterator, LogReport, ExponentialShift, MicroAverage, observe_value,
    # OnceTrigger, MinValueTrigger, ManualScheduleTrigger): training continues to
    # iteration 20 as it did under 7.8.1
    script = _v7_trainer_script()
    trainer, model = script.build(str(tmp_path))
    with warnings.catch_warnings():
        warnings.simplefilter('error')  # every entry of the v7 file is understood
        chainer.serializers.load_npz(str(DATA / 'v7_trainer_snapshot_10'), trainer)
    assert trainer.updater.iteration == 10
    assert trainer.updater.get_optimizer('main').t == 10
    trainer.run()
    with numpy.load(DATA / 'v7_trainer_final.npz') as expected:
        for name, param in model.namedparams():
            numpy.testing.assert_allclose(param.array, expected[name], rtol=1e-6, atol=1e-7)
    log = json.loads((tmp_path / 'log').read_text())
    v7_log = json.loads((DATA / 'v7_trainer_log.json').read_text())
    assert [sorted(e) for e in log] == [sorted(e) for e in v7_log]
    for ours, theirs in zip(log, v7_log):
        for key, value in theirs.items():
            if key != 'elapsed_time':
                assert ours[key] == pytest.approx(value, rel=1e-6), key
