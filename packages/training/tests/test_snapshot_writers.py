"""Snapshot writers: every kind writes complete, consistent snapshots atomically."""

import os
import threading

import numpy
import pytest
from _training_helpers import make_trainer, params

from chainer import serializers
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers
from chainer.training.extensions._frozen_state import freeze

WRITERS = {
    'simple': snapshot_writers.SimpleWriter,
    'thread': snapshot_writers.ThreadWriter,
    'process': snapshot_writers.ProcessWriter,
    'thread_queue': snapshot_writers.ThreadQueueWriter,
    'process_queue': snapshot_writers.ProcessQueueWriter,
}


@pytest.mark.parametrize('kind', sorted(WRITERS))
def test_writers_save_the_state_of_the_snapshot_iteration(tmp_path, kind):
    trainer, model, _ = make_trainer(tmp_path / 'out', stop=(12, 'iteration'), batch_size=5)
    seen = {}
    trainer.extend(lambda tr: seen.__setitem__(tr.updater.iteration, params(model)),
                   name='spy', trigger=(4, 'iteration'))
    trainer.extend(extensions.snapshot(writer=WRITERS[kind]()), trigger=(4, 'iteration'))
    trainer.run()  # finalize waits for the background writers
    names = sorted(os.listdir(tmp_path / 'out'))
    assert names == ['snapshot_iter_12', 'snapshot_iter_4', 'snapshot_iter_8']
    for iteration in (4, 8, 12):
        resumed, resumed_model, _ = make_trainer(tmp_path / 'other', stop=(12, 'iteration'))
        serializers.load_npz(str(tmp_path / 'out' / f'snapshot_iter_{iteration}'), resumed)
        assert resumed.updater.iteration == iteration
        for name, value in params(resumed_model).items():
            numpy.testing.assert_array_equal(value, seen[iteration][name])


def test_frozen_state_is_a_copy_taken_at_once(tmp_path):
    trainer, model, _ = make_trainer(tmp_path, stop=(2, 'iteration'))
    frozen = freeze(model)
    before = params(model)
    for p in model.params():
        p.array += 1  # training goes on while the frozen state is written
    serializers.save_npz(str(tmp_path / 'm.npz'), frozen)
    loaded, _, _ = make_trainer(tmp_path, stop=(2, 'iteration'))
    target = loaded.updater.get_optimizer('main').target
    serializers.load_npz(str(tmp_path / 'm.npz'), target)
    for name, value in params(target).items():
        numpy.testing.assert_array_equal(value, before[name])
    # it replays into HDF5 too, groups included
    pytest.importorskip('h5py')
    serializers.save_hdf5(str(tmp_path / 'm.h5'), freeze(trainer))
    again, _, _ = make_trainer(tmp_path, stop=(2, 'iteration'))
    serializers.load_hdf5(str(tmp_path / 'm.h5'), again)


def _failing_savefun(path, target):
    raise OSError('disk full')


def test_thread_writer_reports_a_failed_save(tmp_path):
    writer = snapshot_writers.ThreadWriter(savefun=_failing_savefun)
    writer('snap', str(tmp_path), object())
    with pytest.raises(RuntimeError, match='disk full'):
        writer('snap', str(tmp_path), object())
    writer('snap', str(tmp_path), object())
    with pytest.raises(RuntimeError, match='disk full'):
        writer.finalize()
    assert os.listdir(tmp_path) == []  # the temporary directories are gone too


def test_process_writer_reports_a_failed_save(tmp_path):
    writer = snapshot_writers.ProcessWriter(savefun=_failing_savefun)
    writer('snap', str(tmp_path), object())
    with pytest.raises(RuntimeError, match='exit code'):
        writer.finalize()


def test_queue_writer_keeps_going_after_a_failure_and_reports_it(tmp_path):
    calls = []

    def savefun(path, target):
        calls.append(target)
        if target == 1:
            raise OSError('disk full')
        with open(path, 'w') as f:
            f.write(str(target))

    writer = snapshot_writers.ThreadQueueWriter(savefun=savefun)
    for i in range(3):
        writer(f'snap{i}', str(tmp_path), i)
    with pytest.raises(RuntimeError, match='disk full'):
        writer.finalize()
    assert calls == [0, 1, 2]
    assert sorted(os.listdir(tmp_path)) == ['snap0', 'snap2']
    writer.finalize()  # once only


def test_standard_writer_waits_for_the_previous_worker(tmp_path):
    events = []
    gate = threading.Event()

    def savefun(path, target):
        events.append(('start', target))
        if target == 0:
            gate.wait(5)
        with open(path, 'w') as f:
            f.write('x')
        events.append(('end', target))

    writer = snapshot_writers.ThreadWriter(savefun=savefun)
    writer('a', str(tmp_path), 0)
    threading.Timer(0.2, gate.set).start()
    writer('b', str(tmp_path), 1)  # joins the first before starting
    writer.finalize()
    assert events == [('start', 0), ('end', 0), ('start', 1), ('end', 1)]
