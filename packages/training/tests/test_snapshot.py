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


# -- leftovers of crashed writers, autoload of the newest complete snapshot ---------------

def _dead_pid():
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, '-c', 'pass'])
    proc.wait()
    return proc.pid


def _leftover(outdir, name, pid, host=None):
    from chainer.backends import files

    prefix = files.temp_prefix(name, pid)
    if host is not None:  # the same name, written on another host
        prefix = f'tmp{name}.ctmp-{host}-{pid}-'
    path = os.path.join(outdir, prefix + 'abc123')
    os.makedirs(path)
    with open(os.path.join(path, name), 'wb') as f:
        f.write(b'PK\x03\x04 half written')
    return os.path.basename(path)


def test_writer_initialize_removes_leftovers_of_dead_processes_only(tmp_path):
    dead = _leftover(tmp_path, 'snapshot_iter_4', _dead_pid())
    mine = _leftover(tmp_path, 'snapshot_iter_5', os.getpid())
    other_host = _leftover(tmp_path, 'snapshot_iter_6', _dead_pid(), host='elsewhere0')
    foreign = tmp_path / 'tmpsnapshot_iter_7xyz'  # not ours (e.g. Chainer v7's): kept
    foreign.mkdir()
    extensions.snapshot_writers.SimpleWriter().initialize(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == sorted([mine, other_host, foreign.name])
    assert dead not in os.listdir(tmp_path)


@pytest.mark.filterwarnings('ignore:IntervalTrigger')
def test_process_killed_while_writing_leaves_nothing_that_autoload_reads(tmp_path):
    import subprocess
    import sys
    import textwrap

    trainer, _, _ = make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    # A process killed in the middle of writing snapshot_iter_6 (no clean-up can run).
    code = textwrap.dedent(f'''
        import os
        from chainer.backends.files import atomic_path
        with atomic_path({str(tmp_path / 'snapshot_iter_6')!r}) as path:
            with open(path, 'wb') as f:
                f.write(b'PK\\x03\\x04 partial')
            os._exit(0)
    ''')
    subprocess.run([sys.executable, '-c', code], check=True)
    assert any('.ctmp-' in name for name in os.listdir(tmp_path))

    again, _, opt = make_trainer(tmp_path, stop=(5, 'iteration'))
    seen = []
    again.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
    again.extend(lambda tr: seen.append(tr.updater.iteration), name='spy')
    again.run()
    assert seen == [5]  # resumed from snapshot_iter_4
    assert sorted(os.listdir(tmp_path)) == ['snapshot_iter_2', 'snapshot_iter_4']


def test_autoload_skips_a_damaged_newest_snapshot(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    newest = tmp_path / 'snapshot_iter_4'
    newest.write_bytes(newest.read_bytes()[:100])  # e.g. written by a non-atomic writer
    again, _, _ = make_trainer(tmp_path, stop=(3, 'iteration'))
    again.extend(extensions.snapshot(autoload=True), trigger=(100, 'iteration'))
    with pytest.warns(UserWarning, match='snapshot_iter_4'):
        again.run()
    assert again.updater.iteration == 3  # resumed from snapshot_iter_2


def test_autoload_raises_when_no_snapshot_is_readable(tmp_path):
    (tmp_path / 'snapshot_iter_2').write_bytes(b'not a snapshot')
    trainer, model, _ = make_trainer(tmp_path, stop=(3, 'iteration'))
    snap = extensions.snapshot(autoload=True)
    before = params(model)
    with pytest.warns(UserWarning), pytest.raises(serializers.InvalidFileError,
                                                  match='snapshot_iter_2'):
        snap.initialize(trainer)
    for name, value in params(model).items():
        numpy.testing.assert_array_equal(value, before[name])
    assert trainer.updater.iteration == 0


def test_autoload_does_not_skip_a_snapshot_of_another_model(tmp_path):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(1, 'iteration'))
    trainer.run()
    newest = tmp_path / 'snapshot_iter_2'
    with numpy.load(newest) as f:
        entries = dict(f)
    entries['updater/model:main/predictor/W'] = numpy.zeros((5, 3), numpy.float32)
    with open(newest, 'wb') as f:
        numpy.savez(f, **entries)
    again, _, _ = make_trainer(tmp_path, stop=(3, 'iteration'))
    with pytest.raises(ValueError, match="'updater/model:main/predictor/W'.*shape"):
        extensions.snapshot(autoload=True).initialize(again)
    assert again.updater.iteration == 0


def test_savefun_and_writer_are_exclusive_and_writers_take_v7_calls(tmp_path):
    with pytest.raises(TypeError, match='savefun or writer'):
        extensions.snapshot(savefun=serializers.save_npz,
                            writer=extensions.snapshot_writers.SimpleWriter())
    calls = []

    class V7Writer(extensions.snapshot_writers.Writer):
        def __call__(self, filename, outdir, target):  # Chainer v7's signature
            calls.append(filename)

    trainer, _, _ = make_trainer(tmp_path, stop=(1, 'iteration'))
    trainer.extend(extensions.snapshot(writer=V7Writer()), trigger=(1, 'iteration'))
    trainer.run()
    assert calls == ['snapshot_iter_1']
    writer = extensions.snapshot_writers.SimpleWriter()  # save_npz by default
    writer('model.npz', str(tmp_path), make_model())
    with numpy.load(tmp_path / 'model.npz') as f:
        assert 'predictor/W' in f.files


def test_v7_snapshot_file_helpers(tmp_path):
    from chainer.training.extensions._snapshot import (
        _find_latest_snapshot,
        _find_snapshot_files,
        _find_stale_snapshots,
    )

    for i, name in enumerate(['snap_2', 'snap_10', 'snap_1', 'tmpsnap_11', 'other']):
        (tmp_path / name).write_bytes(b'')
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    found = _find_snapshot_files('snap_{}', str(tmp_path))
    assert [name for _, name in found] == ['snap_2', 'snap_10', 'snap_1']
    assert found[0][0] == pytest.approx(1000)
    assert _find_latest_snapshot('snap_{}', str(tmp_path)) == 'snap_1'
    assert list(_find_stale_snapshots('snap_{}', str(tmp_path), 1)) == ['snap_2', 'snap_10']
    assert _find_latest_snapshot('x_{}', str(tmp_path / 'missing')) is None
