import numpy
import pytest
from _training_helpers import make_data, make_model, params

import chainer
import chainer.functions as F
from chainer import backend, training
from chainer.dataset import converter
from chainer.iterators import SerialIterator


def make(batch_size=10, **kwargs):
    model = make_model()
    opt = chainer.optimizers.SGD(0.1).setup(model)
    it = SerialIterator(make_data(), batch_size, shuffle=False)
    return training.StandardUpdater(it, opt, **kwargs), model, opt, it


def test_update_matches_manual_sgd_step():
    updater, model, opt, _ = make()
    reference = make_model()
    data = make_data()
    x = numpy.stack([data[i][0] for i in range(10)])
    t = numpy.array([data[i][1] for i in range(10)])
    loss = reference(x, t)
    reference.cleargrads()
    loss.backward()
    expected = {n: p.array - 0.1 * p.grad for n, p in reference.namedparams()}

    updater.update()
    assert updater.iteration == 1
    for name, value in params(model).items():
        numpy.testing.assert_allclose(value, expected[name], rtol=1e-6)


def test_epoch_attributes_follow_main_iterator():
    updater, _, _, it = make(batch_size=15)
    assert updater.get_iterator('main') is it
    assert updater.previous_epoch_detail is None
    updater.update()
    updater.update()
    assert not updater.is_new_epoch and updater.epoch == 0
    updater.update()
    assert updater.is_new_epoch and updater.epoch == 1
    assert updater.epoch_detail == pytest.approx(45 / 40)
    assert updater.previous_epoch_detail == pytest.approx(30 / 40)


def test_optimizer_accessors():
    updater, _, opt, _ = make()
    assert updater.get_optimizer('main') is opt
    assert updater.get_all_optimizers() == {'main': opt}
    with pytest.raises(KeyError):
        updater.get_optimizer('other')


def test_auto_new_epoch_counts_epochs():
    updater, _, opt, _ = make(batch_size=20)
    assert opt.use_auto_new_epoch
    for _ in range(4):
        updater.update()
    assert opt.epoch == 2


def test_custom_loss_func_and_converter_device():
    devices = []

    @converter()
    def conv(batch, device):
        devices.append(device)
        x = numpy.stack([b[0] for b in batch])
        t = numpy.array([b[1] for b in batch])
        return {'x': x, 't': t}

    losses = []

    def loss_func(x, t):
        loss = F.softmax_cross_entropy(model.predictor(x), t)
        losses.append(float(loss.array))
        return loss

    updater, model, _, _ = make(converter=conv, loss_func=loss_func, device='@numpy')
    updater.update()
    assert len(losses) == 1
    assert devices == [backend.get_device('@numpy')]
    assert updater.device == backend.get_device('@numpy')
    assert updater.input_device == backend.get_device('@numpy')


def test_legacy_converter_gets_integer_device():
    seen = []

    def conv(batch, device=None):
        seen.append(device)
        return chainer.dataset.concat_examples(batch, device)

    updater, _, _, _ = make(converter=conv, device=-1)
    updater.update()
    assert seen == [-1]
    updater, _, _, _ = make(converter=conv)
    updater.update()
    assert seen == [-1, None]


def test_bad_arguments():
    model = make_model()
    opt = chainer.optimizers.SGD().setup(model)
    it = SerialIterator(make_data(), 5)
    with pytest.raises(TypeError):
        training.StandardUpdater(it, opt, unknown=1)
    # v7 takes dicts with any names; only what needs 'main' fails, naming it
    updater = training.StandardUpdater({'train': it}, opt)
    with pytest.raises(KeyError, match="no iterator named 'main'.*'train'"):
        updater.update()
    with pytest.raises(KeyError, match="no iterator named 'main'"):
        updater.epoch_detail


def test_serialize_round_trip(tmp_path):
    from chainer import serializers

    updater, model, _, _ = make(batch_size=15)
    for _ in range(3):
        updater.update()
    path = str(tmp_path / 'u.npz')
    serializers.save_npz(path, updater)

    restored, model2, _, it2 = make(batch_size=15)
    serializers.load_npz(path, restored)
    assert restored.iteration == 3
    assert it2.epoch == 1 and it2.current_position == 5
    for name, value in params(model).items():
        numpy.testing.assert_array_equal(params(model2)[name], value)
    updater.update()
    restored.update()
    for name, value in params(model).items():
        numpy.testing.assert_array_equal(params(model2)[name], value)


def test_legacy_module_path():
    from chainer.training.updater import StandardUpdater

    assert StandardUpdater is training.updaters.StandardUpdater is training.StandardUpdater


@pytest.mark.gpu
def test_training_on_gpu(tmp_path):
    cupy = pytest.importorskip('cupy')
    from chainer.training import extensions

    model = make_model()
    opt = chainer.optimizers.SGD(0.1).setup(model)
    it = SerialIterator(make_data(), 10, shuffle=False)
    updater = training.StandardUpdater(it, opt, device='@cupy:0')
    trainer = training.Trainer(updater, (2, 'epoch'), out=str(tmp_path))
    val = SerialIterator(make_data(n=20, seed=2), 10, repeat=False, shuffle=False)
    trainer.extend(extensions.Evaluator(val, model, device='@cupy:0'))
    trainer.extend(extensions.LogReport())
    trainer.run()
    assert isinstance(model.predictor.W.array, cupy.ndarray)
    log = trainer.get_extension('LogReport').log
    assert {'main/loss', 'validation/main/loss'} <= set(log[-1])

    cpu_model = make_model()
    cpu_opt = chainer.optimizers.SGD(0.1).setup(cpu_model)
    cpu_updater = training.StandardUpdater(
        SerialIterator(make_data(), 10, shuffle=False), cpu_opt)
    for _ in range(8):
        cpu_updater.update()
    numpy.testing.assert_allclose(
        cupy.asnumpy(model.predictor.W.array), cpu_model.predictor.W.array, rtol=1e-4, atol=1e-6)
