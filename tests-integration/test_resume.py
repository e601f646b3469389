"""Save, load and resume across packages: links, optimizers, serializers, training."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import datasets, iterators, optimizers, serializers, training
from chainer.training import extensions


def _data():
    rng = numpy.random.RandomState(1)
    x = rng.randn(64, 5).astype(numpy.float32)
    t = (x.sum(axis=1) > 0).astype(numpy.int32)
    return datasets.TupleDataset(x, t)


def _trainer(out, stop, optimizer_cls=optimizers.Adam):
    numpy.random.seed(0)
    model = L.Classifier(chainer.Sequential(L.Linear(5, 8), F.relu, L.Linear(8, 2)))
    optimizer = optimizer_cls().setup(model)
    # Without shuffling, the data order after resuming depends only on the saved position
    # (a shuffled order of a later epoch would come from the global random state).
    it = iterators.SerialIterator(_data(), 16, shuffle=False)
    updater = training.StandardUpdater(it, optimizer)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=str(out))
    trainer.extend(extensions.snapshot(filename='snap_{.updater.iteration}'),
                   trigger=(5, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    return trainer, model, optimizer


@pytest.mark.parametrize('optimizer_cls', [optimizers.SGD, optimizers.MomentumSGD,
                                           optimizers.Adam])
def test_resume_from_snapshot_matches_uninterrupted_run(tmp_path, optimizer_cls):
    full, full_model, _ = _trainer(tmp_path / 'full', 10, optimizer_cls)
    full.run()

    first, _, _ = _trainer(tmp_path / 'part', 5, optimizer_cls)
    first.run()
    resumed, model, optimizer = _trainer(tmp_path / 'resumed', 10, optimizer_cls)
    numpy.random.seed(123)  # the fresh model's values must all be replaced by the snapshot
    serializers.load_npz(str(tmp_path / 'part' / 'snap_5'), resumed)
    assert resumed.updater.iteration == 5
    assert optimizer.t == 5
    resumed.run()
    assert resumed.updater.iteration == 10
    for (name, p), (_, q) in zip(sorted(model.namedparams()),
                                 sorted(full_model.namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-6, atol=1e-6, err_msg=name)


def test_model_and_optimizer_round_trip(tmp_path):
    model = L.Classifier(chainer.Sequential(L.Linear(3), F.relu, L.Linear(2)))
    optimizer = optimizers.Adam().setup(model)
    x = numpy.random.randn(4, 5).astype(numpy.float32)
    t = numpy.array([0, 1, 1, 0], numpy.int32)
    optimizer.update(model, x, t)
    serializers.save_npz(str(tmp_path / 'model.npz'), model)
    serializers.save_npz(str(tmp_path / 'opt.npz'), optimizer)

    model2 = L.Classifier(chainer.Sequential(L.Linear(3), F.relu, L.Linear(2)))
    optimizer2 = optimizers.Adam().setup(model2)
    serializers.load_npz(str(tmp_path / 'model.npz'), model2)  # lazy params get initialized
    serializers.load_npz(str(tmp_path / 'opt.npz'), optimizer2)
    for (n1, p1), (n2, p2) in zip(sorted(model.namedparams()), sorted(model2.namedparams())):
        assert n1 == n2
        numpy.testing.assert_array_equal(p1.array, p2.array)
    assert optimizer2.t == optimizer.t
    optimizer.update(model, x, t)
    optimizer2.update(model2, x, t)
    for (_, p1), (_, p2) in zip(sorted(model.namedparams()), sorted(model2.namedparams())):
        numpy.testing.assert_allclose(p1.array, p2.array, rtol=1e-6)


def test_classifier_reports_through_trainer_observation(tmp_path):
    trainer, _, _ = _trainer(tmp_path, 2)
    trainer.run()
    assert 'main/loss' in trainer.observation
    assert 'main/accuracy' in trainer.observation
