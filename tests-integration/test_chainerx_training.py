"""Chainer on the ChainerX device native:0 (v7's integration): a model trained there
matches the same model trained on @numpy, with Trainer, converters and serializers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import backend, iterators, optimizers, serializers, training
from chainer.dataset import concat_examples
from chainer.training import extensions

chainerx = pytest.importorskip("chainerx")


def _model() -> chainer.Link:
    np.random.seed(0)  # the initializers draw from NumPy's global generator
    return L.Classifier(chainer.Sequential(
        L.Linear(6, 16), F.relu, L.Linear(16, 16), F.tanh, L.Linear(16, 3)))


def _data(n: int = 48) -> chainer.datasets.TupleDataset:
    rng = np.random.RandomState(1)
    return chainer.datasets.TupleDataset(
        rng.standard_normal((n, 6)).astype(np.float32), rng.randint(0, 3, n).astype(np.int32))


def _host(a):
    return backend.CpuDevice().send(a)


def _train(device: str, make_optimizer, steps: int = 5):
    model = _model()
    model.to_device(device)
    opt = make_optimizer()
    opt.setup(model)
    data = _data()
    losses = []
    for i in range(steps):
        x, t = concat_examples([data[j] for j in range(8 * i, 8 * i + 8)], device)
        loss = model(x, t)
        model.cleargrads()
        loss.backward()
        opt.update()
        losses.append(float(_host(loss.array)))
    return model, losses


@pytest.mark.parametrize("make_optimizer", [
    lambda: optimizers.SGD(lr=0.1), lambda: optimizers.Adam(alpha=0.01)])
def test_training_on_native_matches_numpy(make_optimizer):
    reference, expected = _train("@numpy", make_optimizer)
    model, losses = _train("native:0", make_optimizer)
    assert losses == expected
    for (name, p), (_, q) in zip(sorted(model.namedparams()), sorted(reference.namedparams())):
        assert isinstance(p.array, chainerx.ndarray) and p.device.name == "native:0", name
        assert isinstance(p.grad, chainerx.ndarray), name
        np.testing.assert_array_equal(_host(p.array), q.array, err_msg=name)
    assert model.device == backend.get_device("native:0")
    model.to_device("@numpy")  # and back
    assert all(type(p.array) is np.ndarray for p in model.params())


def test_converter_sends_batches_to_the_chainerx_device():
    data = _data(4)
    x, t = concat_examples([data[i] for i in range(4)], chainer.get_device("native:0"))
    assert isinstance(x, chainerx.ndarray) and x.device.name == "native:0"
    assert t.dtype == np.int32 and x.shape == (4, 6)
    np.testing.assert_array_equal(_host(x), np.stack([data[i][0] for i in range(4)]))


def test_npz_round_trip_of_a_model_on_native(tmp_path: Path):
    model, _ = _train("native:0", lambda: optimizers.Adam())
    path = tmp_path / "model.npz"
    serializers.save_npz(path, model)
    same_place = _model()
    same_place.to_device("native:0")
    serializers.load_npz(path, same_place)
    on_cpu = _model()
    serializers.load_npz(path, on_cpu)
    for (_, p), (_, q), (_, r) in zip(sorted(model.namedparams()),
                                      sorted(same_place.namedparams()),
                                      sorted(on_cpu.namedparams())):
        assert isinstance(q.array, chainerx.ndarray)
        np.testing.assert_array_equal(_host(q.array), _host(p.array))
        np.testing.assert_array_equal(r.array, _host(p.array))


def _run_trainer(device: str, out: Path) -> list[dict]:
    model = _model()
    opt = optimizers.MomentumSGD(lr=0.05)
    opt.setup(model)
    data = _data()
    train_iter = iterators.SerialIterator(data, 8, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, opt, device=device)
    trainer = training.Trainer(updater, (2, "epoch"), out=str(out))
    trainer.extend(extensions.Evaluator(
        iterators.SerialIterator(data, 16, repeat=False, shuffle=False), model, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot(filename="snapshot"), trigger=(2, "epoch"))
    trainer.run()
    if device != "@numpy":
        assert all(isinstance(p.array, chainerx.ndarray) for p in model.params())
    return [{k: v for k, v in entry.items() if k != "elapsed_time"}
            for entry in trainer.get_extension("LogReport").log]


def test_trainer_with_a_native_updater_matches_numpy(tmp_path: Path):
    expected = _run_trainer("@numpy", tmp_path / "numpy")
    log = _run_trainer("native:0", tmp_path / "native")
    assert len(log) == 2 and "validation/main/loss" in log[0]
    for got, want in zip(log, expected):
        assert got.keys() == want.keys()
        for key in want:
            assert got[key] == pytest.approx(want[key], rel=1e-6), key
    assert (tmp_path / "native" / "snapshot").exists()


@pytest.mark.parametrize("make_link", [
    lambda: L.BatchNormalization(4),
    lambda: L.DecorrelatedBatchNormalization(4, groups=2),
])
def test_persistent_arrays_follow_the_link_to_native_and_back(make_link):
    # the running statistics (persistents, not parameters) move with to_device both ways
    link = make_link()
    expected = {name: np.array(getattr(link, name)) for name in sorted(link._persistent)
                if isinstance(getattr(link, name), np.ndarray)}
    assert expected
    link.to_device("native:0")
    for name in expected:
        assert isinstance(getattr(link, name), chainerx.ndarray)
    link.to_device("@numpy")
    for name, value in expected.items():
        assert type(getattr(link, name)) is np.ndarray
        np.testing.assert_array_equal(getattr(link, name), value)
