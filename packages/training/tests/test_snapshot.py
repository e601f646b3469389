import os

import numpy
import pytest
from _training_helpers import make_model, make_trainer, params

from chainer import serializers
from chainer.training import extensions


def strip_time(log):
    return [{k: v for k, v in e.items() if k != 'elapsed_time'} for e in log]


def full_trainer(out, stop):
    trainer, model, opt = make_trainer(out, stop=stop, batch_size=15)
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.snapshot(), trigger=(4, 'iteration'))
    return trainer, model, opt


def test_snapshot_files_and_no_leftovers(tmp_path):
    trainer, _, _ = full_trainer(tmp_path, (10, 'iteration'))
    trainer.run()
    files = sorted(os.listdir(tmp_path))
    assert files == ['log', 'snapshot_iter_4', 'snapshot_iter_8']
    with numpy.load(tmp_path / 'snapshot_iter_8') as npz:
        assert int(npz['updater/iteration']) == 8
        assert any(k.startswith('updater/model:main/') for k in npz.files)
        assert any(k.startswith('updater/optimizer:main/') for k in npz.files)


def test_resume_continues_like_uninterrupted_run(tmp_path):
    # Uninterrupted: 14 iterations of 15 examples over 40 (epochs cross mid-batch).
    straight, straight_model, _ = full_trainer(tmp_path / 'a', (14, 'iteration'))
    straight.run()

    # Interrupted after 8 iterations, then resumed from snapshot_iter_8 in a new process state.
    first, _, _ = full_trainer(tmp_path / 'b', (9, 'iteration'))
    first.run()
    resumed, resumed_model, resumed_opt = full_trainer(tmp_path / 'b', (14, 'iteration'))
    serializers.load_npz(str(tmp_path / 'b' / 'snapshot_iter_8'), resumed)
    assert resumed.updater.iteration == 8
    assert resumed.updater.epoch == 3
    assert resumed_opt.t == 8
    resumed.run()

    assert resumed.updater.iteration == 14
    for name, value in params(straight_model).items():
        numpy.testing.assert_allclose(params(resumed_model)[name], value, rtol=1e-6, atol=1e-7)
    straight_log = straight.get_extension('LogReport').log
    resumed_log = resumed.get_extension('LogReport').log
    assert len(resumed_log) == len(straight_log)
    for got, expected in zip(strip_time(resumed_log), strip_time(straight_log), strict=True):
        assert got == pytest.approx(expected, rel=1e-6)
    assert [e['iteration'] for e in resumed_log] == [3, 6, 8, 11, 14]
    # The elapsed time keeps counting from the snapshot.
    assert resumed_log[-1]['elapsed_time'] >= resumed_log[2]['elapsed_time']


def test_snapshot_object_and_filename_format(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, 'epoch'))
    trainer.extend(extensions.snapshot_object(model.predictor, 'model_epoch_{.updater.epoch}'),
                   trigger=(1, 'epoch'))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ['model_epoch_1', 'model_epoch_2']
    loaded = make_model().predictor
    serializers.load_npz(str(tmp_path / 'model_epoch_2'), loaded)
    for name, value in params(model.predictor).items():
        numpy.testing.assert_array_equal(params(loaded)[name], value)


def test_custom_savefun_condition_and_callable_filename(tmp_path):
    saved = []

    def savefun(path, target):
        saved.append(os.path.basename(path))
        with open(path, 'w') as f:
            f.write('x')

    trainer, _, _ = make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(
        extensions.snapshot(savefun=savefun, filename=lambda tr: f's{tr.updater.iteration}',
                            condition=lambda: len(saved) < 2),
        trigger=(1, 'iteration'))
    trainer.run()
    assert saved == ['s1', 's2']
    assert sorted(os.listdir(tmp_path)) == ['s1', 's2']


def test_snapshot_on_error(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(10, 'iteration'))

    def fail(tr):
        if tr.updater.iteration == 3:
            raise RuntimeError('stop here')

    trainer.extend(fail)
    trainer.extend(extensions.snapshot(snapshot_on_error=True, filename='crash'),
                   trigger=(100, 'iteration'))
    with pytest.raises(RuntimeError):
        trainer.run(show_loop_exception_msg=False)
    with numpy.load(tmp_path / 'crash') as npz:
        assert int(npz['updater/iteration']) == 3


def test_unknown_option():
    with pytest.raises(TypeError):
        extensions.snapshot(unknown=True)


def test_n_retains_keeps_newest(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(12, 'iteration'))
    trainer.extend(extensions.snapshot(n_retains=2), trigger=(2, 'iteration'))
    trainer.extend(extensions.snapshot_object(trainer.updater.get_optimizer('main').target,
                                              'model_{.updater.iteration}'),
                   trigger=(6, 'iteration'))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == [
        'model_12', 'model_6', 'snapshot_iter_10', 'snapshot_iter_12']


def test_autoload_resumes_from_newest(tmp_path):
    first, _, _ = make_trainer(tmp_path, stop=(6, 'iteration'))
    first.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
    first.extend(lambda tr: None, name='spy')
    first.run()  # nothing to load yet: starts from scratch
    assert first.updater.iteration == 6

    straight, straight_model, _ = make_trainer(tmp_path / 'other', stop=(9, 'iteration'))
    straight.run()

    again, model, _ = make_trainer(tmp_path, stop=(9, 'iteration'))
    seen = []
    again.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
    again.extend(lambda tr: seen.append(tr.updater.iteration), name='spy')
    again.run()
    assert seen == [7, 8, 9]
    for name, value in params(straight_model).items():
        numpy.testing.assert_allclose(params(model)[name], value, rtol=1e-6, atol=1e-7)
