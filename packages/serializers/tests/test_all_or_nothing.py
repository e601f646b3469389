"""Loading is all or nothing, for NPZ and HDF5, whatever ``serialize`` does."""

import io

import numpy
import pytest
from _serial_objects import Holder

import chainer
from chainer import serializers
from chainer.serializers import npz

h5py = pytest.importorskip('h5py')


def state(obj):
    """Everything ``obj`` saves (its own definition of its state), copied."""
    return {k: numpy.array(v, copy=True) for k, v in npz.serialize(obj).items()}


def assert_same_state(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        if a[k].dtype.hasobject:
            assert a[k][()] is b[k][()], k
        else:
            assert a[k].tobytes() == b[k].tobytes(), k


FORMATS = {
    'npz': ('.npz', serializers.save_npz, serializers.load_npz, ''),
    'hdf5': ('.h5', serializers.save_hdf5, serializers.load_hdf5, '/'),
}


def write(fmt, tmp_path, entries):
    """Write ``entries`` (key -> array) as a file of format ``fmt``; return its path."""
    suffix = FORMATS[fmt][0]
    path = tmp_path / f'data{suffix}'
    if fmt == 'npz':
        numpy.savez(path, **entries)
    else:
        with h5py.File(path, 'w') as f:
            for k, v in entries.items():
                if v.dtype.hasobject:
                    f.create_dataset(k, data=h5py.Empty('f'))
                elif v.dtype.kind == 'U':
                    f.create_dataset(k, data=str(v), dtype=h5py.string_dtype())
                else:
                    f.create_dataset(k, data=v)
    return path


def load(fmt, path, obj):
    FORMATS[fmt][2](path, obj)


@pytest.fixture(params=sorted(FORMATS))
def fmt(request):
    return request.param


@pytest.mark.parametrize('bad_key', ['W', 'count', 'label', 'child/v'])
def test_a_bad_entry_leaves_everything_unchanged(fmt, tmp_path, bad_key):
    entries = npz.serialize(Holder(1))
    entries['lazy'] = numpy.arange(5.0)
    bad = {'W': numpy.zeros((2, 2)), 'count': numpy.asarray(1.5), 'label': numpy.zeros(3),
           'child/v': numpy.zeros(5)}[bad_key]
    path = write(fmt, tmp_path, {**entries, bad_key: bad})
    target = Holder(2)
    before = state(target)
    W, v = target.W.array, target.child.v
    with pytest.raises((ValueError, TypeError)) as info:
        load(fmt, path, target)
    assert repr(FORMATS[fmt][3] + bad_key) in str(info.value)
    assert str(path) in str(info.value)
    assert_same_state(state(target), before)
    assert target.W.array is W and target.child.v is v
    assert target.lazy.array is None  # the lazy parameter was not initialized


def test_a_missing_entry_leaves_everything_unchanged(fmt, tmp_path):
    entries = npz.serialize(Holder(1))
    del entries['child/v']
    path = write(fmt, tmp_path, entries)
    target = Holder(2)
    before = state(target)
    with pytest.raises(KeyError) as info:
        load(fmt, path, target)
    assert repr(FORMATS[fmt][3] + 'child/v') in str(info.value)
    assert str(path) in str(info.value)
    assert_same_state(state(target), before)


def test_arrays_are_written_in_place_once_all_entries_are_checked(fmt, tmp_path):
    path = tmp_path / ('ok' + FORMATS[fmt][0])
    FORMATS[fmt][1](path, Holder(1))
    target = Holder(2)
    W = target.W.array
    load(fmt, path, target)
    assert target.W.array is W
    numpy.testing.assert_array_equal(W, Holder(1).W.array)
    assert target.count == 1 and type(target.count) is int


class Rebuilder:
    """Reads a count first, then as many entries; rebuilds its list (v7 DictSummary style)."""

    def __init__(self, values):
        self.items = [numpy.asarray(v, dtype=numpy.float32) for v in values]
        self.loads = 0

    def serialize(self, s):
        if isinstance(s, chainer.serializer.Serializer):
            s('n', len(self.items))
            for i, item in enumerate(self.items):
                s(f'item{i}', item)
            return
        self.loads += 1  # a side effect of loading
        n = s('n', 0)
        self.items = []
        for i in range(n):
            self.items.append(s(f'item{i}', None))


def test_serialize_deciding_what_to_read_next(fmt, tmp_path):
    path = write(fmt, tmp_path, npz.serialize(Rebuilder([[1, 2], [3], [4, 5, 6]])))
    target = Rebuilder([[9]])
    load(fmt, path, target)
    assert [list(a) for a in target.items] == [[1, 2], [3], [4, 5, 6]]
    assert target.loads == 1


def test_side_effects_and_rebuilt_containers_are_undone(fmt, tmp_path):
    entries = npz.serialize(Rebuilder([[1, 2], [3], [4, 5, 6]]))
    entries['n'] = numpy.asarray(4)  # one item more than stored
    path = write(fmt, tmp_path, entries)
    target = Rebuilder([[9], [8]])
    items, first = target.items, target.items[0]
    with pytest.raises(KeyError, match='item3'):
        load(fmt, path, target)
    assert target.items is items and items[0] is first and len(items) == 2
    assert target.loads == 0


class Strict(Rebuilder):
    def serialize(self, s):
        super().serialize(s)
        if not isinstance(s, chainer.serializer.Serializer):
            for item in self.items:
                if item.dtype.kind not in 'f':
                    raise ValueError('numbers expected')


def test_an_error_raised_by_serialize_itself_undoes_the_load(fmt, tmp_path):
    entries = npz.serialize(Rebuilder([[1, 2], [3]]))
    entries['item1'] = numpy.asarray('text')
    path = write(fmt, tmp_path, entries)
    target = Strict([[9], [8], [7]])
    items, first = target.items, target.items[0]
    with pytest.raises(ValueError, match='numbers expected'):
        load(fmt, path, target)
    assert target.items is items and target.items[0] is first and len(items) == 3
    assert target.loads == 0


class Tolerant:
    """Falls back when an entry is missing (snapshots of older versions, v7 style)."""

    def __init__(self):
        self.a = 1
        self.b = 2

    def serialize(self, s):
        self.a = s('a', self.a)
        try:
            self.b = s('b', self.b)
        except KeyError:
            self.b = -1


def test_a_key_error_caught_by_serialize_is_not_a_failure(fmt, tmp_path):
    path = write(fmt, tmp_path, {'a': numpy.asarray(10)})
    target = Tolerant()
    load(fmt, path, target)
    assert (target.a, target.b) == (10, -1)


class Slotted:
    __slots__ = ('x', 'y')

    def __init__(self):
        self.x = 1
        self.y = numpy.zeros(2)

    def serialize(self, s):
        self.x = s('x', self.x)
        self.y = s('y', self.y)


class Interrupted(Tolerant):
    def serialize(self, s):
        super().serialize(s)
        raise KeyboardInterrupt


def test_slots_and_interrupts_are_rolled_back(fmt, tmp_path):
    path = write(fmt, tmp_path, {'x': numpy.asarray(5), 'y': numpy.zeros(3)})
    target = Slotted()
    y = target.y
    with pytest.raises(ValueError, match='shape'):
        load(fmt, path, target)
    assert target.x == 1 and target.y is y
    path = write(fmt, tmp_path, {'a': numpy.asarray(5), 'b': numpy.asarray(6)})
    target = Interrupted()
    with pytest.raises(KeyboardInterrupt):
        load(fmt, path, target)
    assert (target.a, target.b) == (1, 2)


class Nested:
    def __init__(self):
        self.inner = Holder(2)
        self.n = 0

    def serialize(self, s):
        self.n = s('n', self.n)
        s['inner'].load(self.inner)  # a nested load joins the running one


def test_nested_load_joins_the_transaction(fmt, tmp_path):
    entries = {'n': numpy.asarray(3),
               **{'inner/' + k: v for k, v in npz.serialize(Holder(1)).items()}}
    entries['inner/child/v'] = numpy.zeros(7)
    path = write(fmt, tmp_path, entries)
    target = Nested()
    before = state(target.inner)
    with pytest.raises(ValueError, match='shape'):
        load(fmt, path, target)
    assert target.n == 0
    assert_same_state(state(target.inner), before)


def test_lazy_parameter_initialized_from_the_file(fmt, tmp_path):
    entries = npz.serialize(Holder(1))
    entries['lazy'] = numpy.arange(4.0)
    path = write(fmt, tmp_path, entries)
    target = Holder(2)
    load(fmt, path, target)
    numpy.testing.assert_array_equal(target.lazy.array, numpy.arange(4.0))


def test_a_standalone_call_writes_at_once():
    d = serializers.NpzDeserializer({'y': numpy.ones(3)})
    y = numpy.zeros(3)
    assert d('y', y) is y
    numpy.testing.assert_array_equal(y, numpy.ones(3))


def test_path_prefix_and_ignore_names_and_non_strict(tmp_path):
    entries = {'outer/' + k: v for k, v in npz.serialize(Holder(1)).items()}
    entries['outer/child/v'] = numpy.zeros(9)
    path = write('npz', tmp_path, entries)
    target = Holder(2)
    with pytest.raises(ValueError, match="'outer/child/v'"):
        serializers.load_npz(path, target, path='outer/')
    assert target.count == 2
    serializers.load_npz(path, target, path='outer/', ignore_names='outer/child/v')
    assert target.count == 1
    del entries['outer/W']
    path = write('npz', tmp_path, entries)
    target = Holder(2)
    W = target.W.array.copy()
    serializers.load_npz(path, target, path='outer/', strict=False,
                         ignore_names=lambda k: k.endswith('/v'))
    numpy.testing.assert_array_equal(target.W.array, W)
    assert target.count == 1


def test_truncated_archives_leave_the_target_unchanged(tmp_path):
    buf = io.BytesIO()
    serializers.save_npz(buf, Holder(1))
    data = buf.getvalue()
    for cut in range(0, len(data), 11):
        path = tmp_path / 'cut.npz'
        path.write_bytes(data[:cut])
        target = Holder(2)
        before = state(target)
        with pytest.raises(serializers.InvalidFileError) as info:
            serializers.load_npz(path, target)
        assert str(path) in str(info.value)
        assert_same_state(state(target), before)
