"""save_npz / load_npz, DictionarySerializer and NpzDeserializer."""

import io

import numpy
import pytest
from _serial_objects import Holder

from chainer import serializers


def test_dictionary_serializer_paths_and_values():
    s = serializers.DictionarySerializer()
    obj = Holder(1)
    s.save(obj)
    t = s.target
    assert set(t) == {'W', 'lazy', 'count', 'ratio', 'flag', 'label', 'nothing', 'child/v'}
    numpy.testing.assert_array_equal(t['W'], obj.W.array)
    assert t['W'] is not obj.W.array or t['W'].base is None or True
    assert t['count'] == 1 and t['count'].dtype.kind == 'i'
    assert t['lazy'].dtype == object and t['lazy'][()] is None
    assert s['a']['b/'].path == 'a/b/'
    assert s('/x', 3) == 3 and t['x'] == 3


def test_round_trip_through_file_path(tmp_path):
    src = Holder(1)
    src.lazy.initialize((5,))
    src.lazy.array[...] = numpy.arange(5)
    path = tmp_path / 'obj.npz'
    serializers.save_npz(str(path), src)
    dst = Holder(2)
    W_obj = dst.W.array
    serializers.load_npz(str(path), dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    assert dst.W.array is W_obj  # loaded in place
    numpy.testing.assert_array_equal(dst.lazy.array, numpy.arange(5))
    assert (dst.count, dst.ratio, dst.flag, dst.label) == (1, 0.5, True, 'holder1')
    assert type(dst.count) is int and type(dst.flag) is bool
    assert dst.nothing is None
    numpy.testing.assert_array_equal(dst.child.v, src.child.v)


def test_round_trip_pathlike_and_uncompressed(tmp_path):
    src = Holder(3)
    serializers.save_npz(tmp_path / 'a.npz', src, compression=False)
    dst = Holder(4)
    serializers.load_npz(tmp_path / 'a.npz', dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    assert dst.lazy.array is None  # saved uninitialized, stays uninitialized


def test_round_trip_through_file_objects():
    buf = io.BytesIO()
    serializers.save_npz(buf, Holder(1))
    assert not buf.closed
    buf.seek(0)
    dst = Holder(2)
    serializers.load_npz(buf, dst)
    assert dst.count == 1
    assert not buf.closed


def test_strict_missing_key_error_and_non_strict(tmp_path):
    path = tmp_path / 'partial.npz'
    numpy.savez(path, W=numpy.ones((3, 2), 'f'))
    dst = Holder(2, lazy=False)
    with pytest.raises(KeyError, match="'count'.*strict=False"):
        serializers.load_npz(path, dst)
    dst = Holder(2, lazy=False)
    serializers.load_npz(path, dst, strict=False)
    numpy.testing.assert_array_equal(dst.W.array, numpy.ones((3, 2)))
    assert dst.count == 2


def test_path_prefix(tmp_path):
    path = tmp_path / 'nested.npz'
    s = serializers.DictionarySerializer()
    Holder(1).serialize(s['outer/inner'])
    numpy.savez(path, **s.target)
    dst = Holder(2)
    serializers.load_npz(path, dst, path='outer/inner/')
    assert dst.count == 1


def test_ignore_names(tmp_path):
    path = tmp_path / 'x.npz'
    serializers.save_npz(path, Holder(1))
    dst = Holder(2)
    serializers.load_npz(path, dst, ignore_names=['count', lambda k: k.startswith('child/')])
    assert dst.count == 2 and dst.ratio == 0.5
    numpy.testing.assert_array_equal(dst.child.v, Holder(2).child.v)
    dst = Holder(2)
    serializers.load_npz(path, dst, ignore_names='label')
    assert dst.label == 'holder2' and dst.count == 1
    with pytest.raises(ValueError, match='ignore_names'):
        serializers.load_npz(path, Holder(2), ignore_names=[3])


def test_shape_mismatch_is_an_error():
    d = serializers.NpzDeserializer({'W': numpy.ones((2, 2))})
    with pytest.raises(ValueError, match='shape'):
        d('W', numpy.zeros((3, 2)))


def test_unsafe_scalar_cast_is_an_error():
    d = serializers.NpzDeserializer({'n': numpy.asarray(1.5)})
    with pytest.raises(TypeError, match='cast'):
        d('n', 3)
    assert d('n', 2.0) == 1.5


def test_deserializer_child_paths():
    d = serializers.NpzDeserializer({'a/b/c': numpy.asarray(4)}, strict=True)
    assert d['a']['/b/']('c', 0) == 4
    assert d['a'].path == 'a/'
