"""Snapshots and LogReport's log are written through chainer.backends.files (fsync-ed)."""

import json
import os
import sys

import pytest
from _training_helpers import make_trainer

from chainer.training import extensions

pytestmark = pytest.mark.skipif(not sys.platform.startswith('linux'),
                                reason='reads the names of descriptors from /proc')


def _record_fsync(monkeypatch):
    synced = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        synced.append(os.readlink(f'/proc/self/fd/{fd}'))
        real_fsync(fd)

    monkeypatch.setattr(os, 'fsync', recording_fsync)
    return synced


def test_snapshot_and_log_are_fsynced_before_they_get_their_names(tmp_path, monkeypatch):
    synced = _record_fsync(monkeypatch)
    trainer, _, _ = make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(2, 'iteration')))
    trainer.extend(extensions.snapshot(), trigger=(4, 'iteration'))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ['log', 'snapshot_iter_4']
    assert len(json.loads((tmp_path / 'log').read_text())) == 2
    files = [p for p in synced if '.ctmp-' in p]
    # each file was synced under its temporary name, inside the output folder
    assert sum(os.path.basename(p) == 'log' for p in files) == 2
    assert any(os.path.basename(p) == 'snapshot_iter_4' for p in files)
    assert all(p.startswith(str(tmp_path) + os.sep) for p in files)
    assert str(tmp_path) in synced  # the folder holding the new names


def test_a_failing_snapshot_keeps_the_previous_file(tmp_path, monkeypatch):
    trainer, _, _ = make_trainer(tmp_path, stop=(2, 'iteration'))
    (tmp_path / 'snapshot_iter_2').write_bytes(b'previous snapshot')

    def failing_save(path, target):
        with open(path, 'wb') as f:
            f.write(b'half')
        raise OSError('disk full')

    trainer.extend(extensions.snapshot(savefun=failing_save), trigger=(2, 'iteration'))
    with pytest.raises(OSError, match='disk full'):
        trainer.run()
    assert (tmp_path / 'snapshot_iter_2').read_bytes() == b'previous snapshot'
    assert sorted(os.listdir(tmp_path)) == ['snapshot_iter_2']
