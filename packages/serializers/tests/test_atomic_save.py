"""save_npz / save_hdf5 write through chainer.backends.files: fsync-ed, old file kept on error."""

import os

import numpy
import pytest

from chainer import serializers


class Arrays:
    def __init__(self, value, fail=False):
        self.a = numpy.full((4, 5), value, numpy.float32)
        self.fail = fail

    def serialize(self, s):
        s('a', self.a)
        if self.fail:
            raise RuntimeError('failed midway')


def _savers():
    savers = [serializers.save_npz]
    try:
        import h5py  # noqa: F401
    except ImportError:
        pass
    else:
        savers.append(serializers.save_hdf5)
    return savers


@pytest.mark.parametrize('save', _savers(), ids=lambda f: f.__name__)
def test_a_failed_save_keeps_the_previous_file(tmp_path, save):
    path = tmp_path / 'model'
    save(path, Arrays(1.0))
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match='midway'):
        save(path, Arrays(2.0, fail=True))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['model']
    loaded = Arrays(0.0)
    (serializers.load_npz if save is serializers.save_npz else serializers.load_hdf5)(
        path, loaded)
    numpy.testing.assert_array_equal(loaded.a, numpy.ones((4, 5), numpy.float32))


@pytest.mark.parametrize('save', _savers(), ids=lambda f: f.__name__)
def test_the_saved_file_is_fsynced(tmp_path, monkeypatch, save):
    sizes = []
    real_fsync = os.fsync

    def recording_fsync(fd):
        sizes.append(os.fstat(fd).st_size)
        real_fsync(fd)

    monkeypatch.setattr(os, 'fsync', recording_fsync)
    path = tmp_path / 'model'
    save(path, Arrays(3.0))
    assert os.path.getsize(path) in sizes


def test_save_npz_to_a_file_object_writes_in_place(tmp_path):
    path = tmp_path / 'obj.npz'
    with open(path, 'wb') as f:
        serializers.save_npz(f, Arrays(4.0))
    loaded = Arrays(0.0)
    serializers.load_npz(path, loaded)
    numpy.testing.assert_array_equal(loaded.a, numpy.full((4, 5), 4, numpy.float32))
