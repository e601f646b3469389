"""Extensions called before training, and updaters with v7's optimizer dicts."""

import json

import numpy
import pytest
from _training_helpers import make_data, make_model, make_trainer

import chainer
import chainer.links as L
from chainer import training
from chainer.iterators import SerialIterator
from chainer.training import extensions


def _eval_trainer(tmp_path, **log_kwargs):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, 'epoch'), batch_size=10, lr=0.5)
    valid = SerialIterator(make_data(20, seed=1), 10, repeat=False, shuffle=False)
    trainer.extend(extensions.Evaluator(valid, model), call_before_training=True)
    trainer.extend(extensions.LogReport(**log_kwargs), call_before_training=True)
    return trainer, model, valid


def _accuracy(model, seed=1):
    data = make_data(20, seed=seed)
    x = numpy.stack([d[0] for d in data])
    t = numpy.array([d[1] for d in data])
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        return float(chainer.functions.accuracy(model.predictor(x), t).array)


def test_log_report_writes_pre_training_entry(tmp_path):
    trainer, model, _ = _eval_trainer(tmp_path)
    before = _accuracy(model)
    after_epochs = []

    @training.make_extension(trigger=(1, 'epoch'), priority=training.PRIORITY_EDITOR)
    def record(trainer):
        after_epochs.append(_accuracy(model))

    trainer.extend(record)
    trainer.run()
    log = json.loads((tmp_path / 'log').read_text())
    assert [(e['epoch'], e['iteration']) for e in log] == [(0, 0), (1, 4), (2, 8)]
    # the entry at iteration 0 is the untrained model's evaluation ...
    assert log[0]['validation/main/accuracy'] == pytest.approx(before)
    assert 'main/loss' not in log[0]
    # ... and epoch 1's entry holds epoch 1's evaluation only, not a mean with it
    assert log[1]['validation/main/accuracy'] == pytest.approx(after_epochs[0])
    assert log[2]['validation/main/accuracy'] == pytest.approx(after_epochs[1])
    assert log[1]['validation/main/accuracy'] != pytest.approx(
        (before + after_epochs[0]) / 2)


def test_log_report_without_call_before_training_has_no_iteration_zero(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.run()
    log = json.loads((tmp_path / 'log').read_text())
    assert [e['iteration'] for e in log] == [4, 8]


def test_print_report_prints_pre_training_row(tmp_path):
    import io

    trainer, _, _ = _eval_trainer(tmp_path)
    out = io.StringIO()
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'validation/main/accuracy'], out=out),
        call_before_training=True)
    trainer.run()
    rows = [line.replace('\x1b[J', '').split() for line in out.getvalue().splitlines()[1:]]
    assert [r[:2] for r in rows] == [['0', '0'], ['1', '4'], ['2', '8']]


def test_plot_report_plots_pre_training_point(tmp_path):
    pytest.importorskip('matplotlib')
    trainer, _, _ = _eval_trainer(tmp_path)
    plot = extensions.PlotReport(['validation/main/accuracy'], x_key='epoch',
                                 filename='acc.png')
    trainer.extend(plot, call_before_training=True)
    trainer.run()
    xs = [x for x, _ in plot._data['validation/main/accuracy']]
    assert xs == [0, 1, 2]
    assert (tmp_path / 'acc.png').stat().st_size > 0


class _GanUpdater(training.updaters.StandardUpdater):
    """Steps two optimizers named as in v7's DCGAN example."""

    def update_core(self):
        batch = self.get_iterator('main').next()
        x = numpy.stack([b[0] for b in batch])
        for name in ('gen', 'dis'):
            opt = self.get_optimizer(name)
            opt.update(lambda link=opt.target: chainer.functions.sum(link(x) ** 2))


def test_standard_updater_accepts_optimizer_dict_without_main(tmp_path):
    gen, dis = L.Linear(3, 2), L.Linear(3, 2)
    opts = {name: chainer.optimizers.SGD(0.1).setup(link)
            for name, link in (('gen', gen), ('dis', dis))}
    w0 = gen.W.array.copy(), dis.W.array.copy()
    it = SerialIterator(make_data(20), 5, shuffle=False)
    updater = _GanUpdater(it, opts)
    trainer = training.Trainer(updater, (3, 'iteration'), out=str(tmp_path))
    trainer.run()
    assert updater.iteration == 3
    assert not numpy.array_equal(gen.W.array, w0[0])
    assert not numpy.array_equal(dis.W.array, w0[1])
    assert set(updater.get_all_optimizers()) == {'gen', 'dis'}
    with pytest.raises(KeyError, match="no optimizer named 'main'"):
        updater.get_optimizer('main')


def test_standard_updater_default_update_needs_main(tmp_path):
    opt = chainer.optimizers.SGD().setup(make_model())
    it = SerialIterator(make_data(), 5)
    updater = training.updaters.StandardUpdater(it, {'other': opt})
    with pytest.raises(KeyError, match="no optimizer named 'main'.*'other'"):
        updater.update()
