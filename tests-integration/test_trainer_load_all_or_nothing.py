"""A trainer snapshot that fails to load leaves the whole trainer as it was.

The trainer holds an updater (iterator with a shuffled order, Adam with its states, the
model), a LogReport with its log and running summary, a learning-rate shift and their
triggers; the snapshot is damaged in entries read early and late.
"""

import io

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import datasets, iterators, optimizers, serializers, training
from chainer.serializers import npz as npz_module
from chainer.training import extensions


def _trainer(out, stop):
    numpy.random.seed(0)
    rng = numpy.random.RandomState(1)
    x = rng.randn(50, 4).astype(numpy.float32)
    t = (x.sum(axis=1) > 0).astype(numpy.int32)
    model = L.Classifier(chainer.Sequential(L.Linear(4, 6), F.relu, L.Linear(6, 2)))
    optimizer = optimizers.Adam().setup(model)
    it = iterators.SerialIterator(datasets.TupleDataset(x, t), 8, shuffle=True)
    trainer = training.Trainer(training.StandardUpdater(it, optimizer), (stop, 'iteration'),
                               out=str(out))
    trainer.extend(extensions.LogReport(trigger=(2, 'iteration')))
    trainer.extend(extensions.ExponentialShift('alpha', 0.9), trigger=(3, 'iteration'))
    return trainer


def _state(trainer):
    return {k: numpy.array(v, copy=True) for k, v in npz_module.serialize(trainer).items()}


def _identities(trainer):
    updater = trainer.updater
    opt = updater.get_optimizer('main')
    ids = [id(p.array) for p in opt.target.params()]
    ids += [sorted((k, id(v)) for k, v in p.update_rule.state.items())
            for p in opt.target.params()]
    ids.append(id(updater.get_iterator('main')._order))
    return ids


def _same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        assert a[k].tobytes() == b[k].tobytes(), k


@pytest.fixture(scope='module')
def snapshot_entries(tmp_path_factory):
    trainer = _trainer(tmp_path_factory.mktemp('src'), 7)
    trainer.run()
    return dict(npz_module.serialize(trainer))


def _variants(entries):
    assert 'updater/model:main/predictor/1/W' in entries
    model = 'updater/model:main/predictor/1/W'
    out = [
        ('a late model entry reshaped', model, {**entries, model: numpy.zeros((3, 3), 'f')}),
        ('the log is missing', 'extensions/LogReport/_log',
         {k: v for k, v in entries.items() if k != 'extensions/LogReport/_log'}),
        ('the shift counter is a float', 'extensions/ExponentialShift/_t',
         {**entries, 'extensions/ExponentialShift/_t': numpy.asarray(2.5)}),
        ('the iteration is text', 'updater/iteration',
         {**entries, 'updater/iteration': numpy.asarray('seven')}),
        ('the order is reshaped', 'updater/iterator:main/order',
         {**entries, 'updater/iterator:main/order': numpy.arange(7)}),
        ('an Adam state is missing', 'updater/optimizer:main/predictor/1/b/v',
         {k: v for k, v in entries.items() if k != 'updater/optimizer:main/predictor/1/b/v'}),
    ]
    files = []
    for label, key, new in out:
        buf = io.BytesIO()
        numpy.savez(buf, **new)
        files.append((label, key, buf.getvalue()))
    buf = io.BytesIO()
    numpy.savez_compressed(buf, **entries)
    data = buf.getvalue()
    files += [(f'truncated at {cut}', None, data[:cut]) for cut in (len(data) // 2, len(data) - 9)]
    return files


def test_a_damaged_snapshot_leaves_the_trainer_unchanged(snapshot_entries, tmp_path):
    variants = _variants(snapshot_entries)
    for label, key, data in variants:
        trainer = _trainer(tmp_path / 'run', 3)
        trainer.run()
        before = _state(trainer)
        ids = _identities(trainer)
        log = list(trainer.get_extension('LogReport').log)
        path = tmp_path / 'snapshot'
        path.write_bytes(data)
        with pytest.raises((KeyError, ValueError, TypeError)) as info:
            serializers.load_npz(str(path), trainer)
        assert str(path) in str(info.value), label
        if key is not None:
            assert repr(key) in str(info.value), (label, str(info.value))
        # identities first: saving (in _state) may replace an iterator's order by a copy
        assert _identities(trainer) == ids, label
        _same(_state(trainer), before)
        assert trainer.get_extension('LogReport').log == log, label
        assert trainer.updater.iteration == 3


def test_the_intact_snapshot_loads_and_training_goes_on(snapshot_entries, tmp_path):
    buf = io.BytesIO()
    numpy.savez(buf, **snapshot_entries)
    path = tmp_path / 'snapshot'
    path.write_bytes(buf.getvalue())
    trainer = _trainer(tmp_path / 'run', 9)
    serializers.load_npz(str(path), trainer)
    assert trainer.updater.iteration == 7
    assert len(trainer.get_extension('LogReport').log) == 3
    trainer.run()
    assert trainer.updater.iteration == 9
