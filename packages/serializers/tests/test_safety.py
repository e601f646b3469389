"""Loading never runs code from a file: pickles and object arrays are refused."""

import io
import os
import pickle
import zipfile

import numpy
import pytest
from _serial_objects import Holder

from chainer import serializers

h5py = pytest.importorskip('h5py')


def _write_marker():
    with open(os.environ['CHAINER_TEST_MARKER'], 'w') as f:
        f.write('ran')


class Evil:
    """Unpickling it writes the file named by the environment variable below."""

    def __reduce__(self):
        return (_write_marker, ())


@pytest.fixture
def marker(tmp_path, monkeypatch):
    path = tmp_path / 'marker'
    monkeypatch.setenv('CHAINER_TEST_MARKER', str(path))
    yield path
    assert not path.exists(), 'code from the file ran'


def _object_array(obj):
    arr = numpy.empty((), dtype=object)
    arr[()] = obj
    return arr


def _saved_entries(seed=1):
    s = serializers.DictionarySerializer()
    s.save(Holder(seed))
    return s.target


def test_object_array_entry_is_refused_and_names_file_and_key(tmp_path, marker):
    path = tmp_path / 'evil.npz'
    numpy.savez(path, **{**_saved_entries(), 'child/v': _object_array(Evil())})
    target = Holder(2)
    with pytest.raises(serializers.InvalidFileError) as info:
        serializers.load_npz(path, target)
    assert "'child/v'" in str(info.value) and str(path) in str(info.value)
    assert 'pickled Python objects' in str(info.value)
    assert isinstance(info.value, ValueError)
    assert target.count == 2  # nothing was loaded


def test_archive_opened_with_allow_pickle_is_still_safe(tmp_path, marker):
    path = tmp_path / 'evil.npz'
    numpy.savez(path, **{**_saved_entries(), 'W': _object_array(Evil())})
    with numpy.load(path, allow_pickle=True) as npz:
        with pytest.raises(serializers.InvalidFileError, match="'W'"):
            serializers.NpzDeserializer(npz).load(Holder(2))
        with pytest.raises(serializers.InvalidFileError, match="'W'"):
            serializers.NpzDeserializer(npz)('W', None)


def test_object_array_in_a_dict_is_refused(marker):
    d = serializers.NpzDeserializer({'x': numpy.array([1, 'a'], dtype=object)})
    with pytest.raises(serializers.InvalidFileError, match="'x'"):
        d('x', None)


def test_object_array_of_none_only_is_refused_unless_zero_dimensional(tmp_path, marker):
    path = tmp_path / 'nones.npz'
    numpy.savez(path, **{**_saved_entries(), 'nothing': numpy.array([None, None])})
    with pytest.raises(serializers.InvalidFileError, match="'nothing'"):
        serializers.load_npz(path, Holder(2))


@pytest.mark.parametrize('content', [
    pickle.dumps(Evil()),
    pickle.dumps(Evil(), protocol=0),
    pickle.dumps({'W': Evil()}),
])
def test_pickle_file_is_refused(tmp_path, marker, content):
    path = tmp_path / 'model.npz'
    path.write_bytes(content)
    with pytest.raises(serializers.InvalidFileError, match='NPZ archive') as info:
        serializers.load_npz(path, Holder(2))
    assert str(path) in str(info.value)


@pytest.mark.parametrize('content, words', [
    (b'', 'empty'),
    (b'\x93NUMPY\x01\x00', '.npy'),
    (b'PK\x03\x04garbage', 'damaged'),
    (b'plain text', 'not a zip'),
])
def test_other_non_archives_are_refused(tmp_path, content, words):
    path = tmp_path / 'x.npz'
    path.write_bytes(content)
    with pytest.raises(serializers.InvalidFileError, match=words):
        serializers.load_npz(path, Holder(2))


def test_pickle_given_as_file_object(marker):
    buf = io.BytesIO(pickle.dumps(Evil()))
    with pytest.raises(serializers.InvalidFileError, match='pickle'):
        serializers.load_npz(buf, Holder(2))


def test_pickled_object_hidden_in_array_reconstruction_is_refused(tmp_path, marker):
    # A payload that starts like NumPy's own array pickle but calls something else.
    arr_pickle = pickle.dumps(_object_array(None), protocol=3)
    evil = pickle.dumps(Evil(), protocol=3)
    path = tmp_path / 'crafted.npz'
    with zipfile.ZipFile(path, 'w') as zf:
        for name, payload in [('a.npy', arr_pickle), ('b.npy', evil)]:
            header = io.BytesIO()
            numpy.lib.format.write_array_header_1_0(
                header, {'descr': '|O', 'fortran_order': False, 'shape': ()})
            zf.writestr(name, header.getvalue() + payload)
    d = serializers.NpzDeserializer(numpy.load(path, allow_pickle=False))
    assert d('a', 1.0) is None  # Chainer's encoding of None: decoded safely
    with pytest.raises(serializers.InvalidFileError, match="'b'"):
        d('b', None)


def test_none_entries_of_v7_files_still_load(tmp_path):
    # Chainer v7 saves None (e.g. an uninitialized parameter) as a pickled object array.
    path = tmp_path / 'v7.npz'
    numpy.savez(path, **_saved_entries())
    dst = Holder(2)
    dst.nothing = 'something'
    serializers.load_npz(path, dst)
    assert dst.nothing is None and dst.lazy.array is None


def test_hdf5_non_numeric_entries_are_refused(tmp_path):
    path = tmp_path / 'refs.h5'
    serializers.save_hdf5(path, Holder(1))
    with h5py.File(path, 'a') as f:
        del f['count']
        f.create_dataset('count', data=numpy.zeros(2, dtype=[('a', 'i4'), ('b', 'f4')]))
    target = Holder(2)
    with pytest.raises(ValueError, match="'/count'.*structured") as info:
        serializers.load_hdf5(path, target)
    assert str(path) in str(info.value)
    assert target.count == 2


def test_hdf5_file_that_is_not_hdf5(tmp_path, marker):
    path = tmp_path / 'model.h5'
    path.write_bytes(pickle.dumps(Evil()))
    with pytest.raises(serializers.InvalidFileError, match='HDF5') as info:
        serializers.load_hdf5(path, Holder(2))
    assert str(path) in str(info.value)
