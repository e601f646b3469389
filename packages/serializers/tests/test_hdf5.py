"""HDF5Serializer / HDF5Deserializer and save_hdf5 / load_hdf5."""

import subprocess
import sys

import numpy
import pytest
from _serial_objects import Holder

from chainer import serializers
from chainer.serializers import hdf5

h5py = pytest.importorskip('h5py')


def test_round_trip(tmp_path):
    src = Holder(1)
    src.lazy.initialize((3,))
    src.lazy.array[...] = 7
    serializers.save_hdf5(tmp_path / 'a.h5', src)
    with h5py.File(tmp_path / 'a.h5', 'r') as f:
        assert 'child/v' in f and f['W'].shape == (3, 2)
    dst = Holder(2)
    W_obj = dst.W.array
    serializers.load_hdf5(tmp_path / 'a.h5', dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    assert dst.W.array is W_obj
    numpy.testing.assert_array_equal(dst.lazy.array, [7, 7, 7])
    assert (dst.count, dst.ratio, dst.flag, dst.label) == (1, 0.5, True, 'holder1')
    assert dst.nothing is None
    numpy.testing.assert_array_equal(dst.child.v, src.child.v)


def test_uninitialized_stays_uninitialized(tmp_path):
    serializers.save_hdf5(tmp_path / 'b.h5', Holder(1))
    dst = Holder(2)
    serializers.load_hdf5(tmp_path / 'b.h5', dst)
    assert dst.lazy.array is None


def test_strict_and_non_strict(tmp_path):
    with h5py.File(tmp_path / 'c.h5', 'w') as f:
        f.create_dataset('W', data=numpy.ones((3, 2), 'f'))
    with h5py.File(tmp_path / 'c.h5', 'r') as f:
        with pytest.raises(KeyError, match='count'):
            hdf5.HDF5Deserializer(f).load(Holder(2, lazy=False))
        dst = Holder(2, lazy=False)
        hdf5.HDF5Deserializer(f, strict=False).load(dst)
        numpy.testing.assert_array_equal(dst.W.array, numpy.ones((3, 2)))
        assert dst.count == 2
        with pytest.raises(KeyError, match='/child/v'):
            hdf5.HDF5Deserializer(f)['child']('v', None)


def test_missing_h5py_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, 'h5py', None)  # `import h5py` fails
    assert hdf5.h5py is None
    with pytest.raises(RuntimeError, match='pip install h5py'):
        serializers.save_hdf5('never.h5', Holder())
    with pytest.raises(RuntimeError, match='pip install h5py'):
        serializers.load_hdf5('never.h5', Holder())


def test_h5py_is_imported_at_first_use_only():
    code = ('import sys, chainer.serializers; assert "h5py" not in sys.modules; '
            'from chainer.serializers import hdf5; assert hdf5._available; '
            'assert hdf5.h5py is sys.modules["h5py"]')
    subprocess.run([sys.executable, '-c', code], check=True)


def test_available_flag_as_v7():
    # v7 code checks chainer.serializers.hdf5._available before using HDF5.
    assert hdf5._available is True


@pytest.mark.parametrize('level', [0, 4, 9])
def test_compression_level_applies_to_arrays(tmp_path, level):
    src = Holder(1)
    src.lazy.initialize((3,))
    path = tmp_path / f'c{level}.h5'
    serializers.save_hdf5(path, src, compression=level)
    with h5py.File(path, 'r') as f:
        datasets = []
        f.visititems(lambda name, obj: datasets.append(obj)
                     if isinstance(obj, h5py.Dataset) else None)
        arrays = [d for d in datasets if d.shape not in ((), None) and d.size > 1]
        assert arrays
        for d in arrays:
            assert d.compression == 'gzip' and d.compression_opts == level
    dst = Holder(2)
    serializers.load_hdf5(path, dst)
    numpy.testing.assert_array_equal(dst.lazy.array, src.lazy.array)
