import os

import numpy
import pytest
from _training_helpers import FakeUpdater, make_data, make_model, make_trainer, params

import chainer
import chainer.functions as F
from chainer import training


def test_trains_tiny_model_for_n_epochs(tmp_path):
    trainer, model, _ = make_trainer(tmp_path / 'out', stop=(5, 'epoch'), lr=0.5)
    data = make_data()
    x = numpy.stack([d[0] for d in data])
    t = numpy.array([d[1] for d in data])

    def loss_now():
        with chainer.no_backprop_mode():
            return float(F.softmax_cross_entropy(model.predictor(x), t).array)

    before = loss_now()
    trainer.run()
    assert trainer.updater.iteration == 20
    assert trainer.updater.epoch == 5
    assert trainer.updater.epoch_detail == 5.0
    assert os.path.isdir(tmp_path / 'out')
    assert loss_now() < before * 0.7
    assert trainer.elapsed_time > 0


def test_reporter_observes_main_and_child_links(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(1, 'iteration'))
    seen = {}

    def grab(tr):
        seen.update(tr.observation)

    trainer.extend(grab)
    trainer.run()
    assert set(seen) >= {'main/loss', 'main/accuracy'}
    names = {id(model): 'main', id(model.predictor): 'main/predictor'}
    for obj_id, name in names.items():
        assert trainer.reporter._observer_names[obj_id] == name


def test_extension_order_triggers_and_names(tmp_path):
    trainer = training.Trainer(FakeUpdater(per_epoch=4), (2, 'epoch'), out=str(tmp_path))
    calls = []

    def reader(tr):
        calls.append(('reader', tr.updater.iteration))

    @training.make_extension(trigger=(2, 'iteration'), priority=training.PRIORITY_WRITER)
    def writer(tr):
        calls.append(('writer', tr.updater.iteration))

    def every_epoch(tr):
        calls.append(('epoch', tr.updater.iteration))

    trainer.extend(reader, trigger=(4, 'iteration'))
    trainer.extend(writer)
    trainer.extend(every_epoch, name='reader', trigger=(1, 'epoch'))
    assert trainer.get_extension('reader') is reader
    assert trainer.get_extension('reader_1') is every_epoch
    assert trainer.get_extension('writer') is writer
    trainer.run()
    assert calls == [
        ('writer', 2),
        ('writer', 4), ('reader', 4), ('epoch', 4),
        ('writer', 6),
        ('writer', 8), ('reader', 8), ('epoch', 8),
    ]


def test_default_trigger_is_every_iteration(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (3, 'iteration'), out=str(tmp_path))
    seen = []
    trainer.extend(lambda tr: seen.append(tr.updater.iteration), name='spy')
    trainer.run()
    assert seen == [1, 2, 3]


def test_call_before_training(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (2, 'iteration'), out=str(tmp_path))
    seen = []
    trainer.extend(lambda tr: seen.append(tr.updater.iteration), name='spy',
                   trigger=(1, 'epoch'), call_before_training=True)
    trainer.run()
    assert seen == [0]


def test_extension_lifecycle_on_error(tmp_path, capsys):
    events = []

    class Failing(training.Extension):
        def initialize(self, trainer):
            events.append('initialize')

        def __call__(self, trainer):
            if trainer.updater.iteration == 2:
                raise RuntimeError('boom')

        def on_error(self, trainer, exc, tb):
            events.append(('on_error', str(exc)))

        def finalize(self):
            events.append('finalize')

    trainer = training.Trainer(FakeUpdater(), (10, 'iteration'), out=str(tmp_path))
    trainer.extend(Failing())
    with pytest.raises(RuntimeError, match='boom'):
        trainer.run()
    assert events == ['initialize', ('on_error', 'boom'), 'finalize']
    assert 'Exception in main training loop: boom' in capsys.readouterr().err
    with pytest.raises(RuntimeError, match='already run'):
        trainer.run()


def test_extend_errors(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out=str(tmp_path))

    class NoName:
        def __call__(self, trainer):
            pass

    with pytest.raises(TypeError):
        trainer.extend(NoName())
    with pytest.raises(ValueError, match='training'):
        trainer.extend(lambda tr: None, name='training')
    with pytest.raises(ValueError, match='not found'):
        trainer.get_extension('nothing')
    with pytest.raises(RuntimeError, match='not been started'):
        trainer.elapsed_time


def test_extension_base_defaults():
    ext = training.Extension()
    assert ext.trigger == (1, 'iteration')
    assert ext.priority == training.PRIORITY_READER
    assert ext.default_name == 'Extension'
    assert training.PRIORITY_WRITER > training.PRIORITY_EDITOR > training.PRIORITY_READER
    with pytest.raises(NotImplementedError):
        ext(None)

    @training.make_extension()
    def plain(trainer):
        pass

    assert plain.trigger == (1, 'iteration')
    assert plain.default_name == 'plain'
    assert plain.priority == training.PRIORITY_READER


def test_extensions_argument_and_no_stop_trigger(tmp_path):
    data = make_data(n=20)
    model = make_model()
    opt = chainer.optimizers.SGD(0.1).setup(model)
    it = chainer.iterators.SerialIterator(data, 10, repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(it, opt)
    seen = []
    trainer = training.Trainer(updater, out=str(tmp_path),
                               extensions=[lambda tr: seen.append(tr.updater.iteration)])
    # Without a stop trigger the loop ends when the iterator is exhausted.
    with pytest.raises(StopIteration):
        trainer.run(show_loop_exception_msg=False)
    assert seen == [1, 2]


def test_params_change_only_through_training(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(1, 'iteration'))
    before = params(model)
    trainer.run()
    after = params(model)
    assert any(not numpy.array_equal(before[k], after[k]) for k in before)
