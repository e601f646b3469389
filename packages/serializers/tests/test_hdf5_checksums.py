"""save_hdf5 writes checksums; a flipped byte in any dataset's data is reported on load.

Every dataset the serializer writes is damaged in turn (a byte flipped at the start,
the middle and the end of its stored data, found with h5py's low-level API); loading
must raise InvalidFileError naming the file and the dataset, and leave the target as
it was. Files without checksums (as Chainer 7.8.1 wrote them) still load.
"""

import os
import shutil

import numpy
import pytest

from chainer import serializers
from chainer.serializers import InvalidFileError, hdf5

h5py = pytest.importorskip('h5py')

LABEL = 'a label to find in the file'


class Model:
    """Parameters of several sizes and kinds (one large enough for several chunks)."""

    def __init__(self, seed):
        rng = numpy.random.RandomState(seed)
        self.W = rng.randn(256, 600).astype(numpy.float32)  # 600 KB: several chunks
        self.b = rng.randn(5).astype(numpy.float32)
        self.one = rng.randn(1).astype(numpy.float64)
        self.mask = rng.rand(7) > 0.5
        self.counts = rng.randint(0, 100, size=(2, 3)).astype(numpy.int64)
        self.half = rng.randn(4).astype(numpy.float16)
        self.scale = numpy.float32(rng.rand())
        self.empty = numpy.zeros((0, 3), numpy.float32)

    def serialize(self, s):
        for name in ('W', 'b', 'one', 'mask', 'counts', 'half', 'empty'):
            s(name, getattr(self, name))
        self.scale = s('scale', self.scale)


class AdamLike:
    """An Adam optimizer's state: ``t``, ``epoch``, and ``m`` / ``v`` per parameter."""

    def __init__(self, model, seed):
        rng = numpy.random.RandomState(seed + 100)
        self.t = seed + 3
        self.epoch = seed
        self.lr = 0.001 * (seed + 1)
        self.label = f'{LABEL} {seed}'
        self.state = {name: {'m': rng.randn(*getattr(model, name).shape).astype('f'),
                             'v': rng.rand(*getattr(model, name).shape).astype('f')}
                      for name in ('W', 'b')}

    def serialize(self, s):
        self.t = s('t', self.t)
        self.epoch = s('epoch', self.epoch)
        self.lr = s('lr', self.lr)
        self.label = s('label', self.label)
        for name, st in self.state.items():
            for key in ('m', 'v'):
                s[name](key, st[key])


class Everything:
    def __init__(self, seed):
        self.model = Model(seed)
        self.optimizer = AdamLike(self.model, seed)

    def serialize(self, s):
        self.model.serialize(s['model'])
        self.optimizer.serialize(s['optimizer'])


def _state(obj):
    """A deep copy of everything ``obj`` holds, to compare before and after a load."""
    values = []

    class Recorder:
        def __getitem__(self, key):
            return self

        def __call__(self, key, value):
            values.append((key, numpy.array(value, copy=True)))
            return value

    obj.serialize(Recorder())
    return values


def _assert_same(a, b):
    assert [k for k, _ in a] == [k for k, _ in b]
    for (key, x), (_, y) in zip(a, b, strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape, key
        assert numpy.array_equal(x, y), key


def _stored_data(path):
    """``{dataset name: [(offset, size), ...]}``: where each dataset's data lies."""
    places = {}

    def visit(name, node):
        if not isinstance(node, h5py.Dataset):
            return
        dsid = node.id
        if node.chunks is not None:
            chunks = [dsid.get_chunk_info(i) for i in range(dsid.get_num_chunks())]
            places[name] = [(c.byte_offset, c.size) for c in chunks]
        else:
            offset = dsid.get_offset()
            size = dsid.get_storage_size()
            places[name] = [] if offset is None or size == 0 else [(offset, size)]

    with h5py.File(path, 'r') as f:
        f.visititems(visit)
    return places


def _flip(src, dst, offset):
    shutil.copyfile(src, dst)
    with open(dst, 'r+b') as f:
        f.seek(offset)
        byte = f.read(1)
        f.seek(offset)
        f.write(bytes([byte[0] ^ 0x10]))


@pytest.fixture(scope='module')
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp('h5') / 'saved.h5'
    serializers.save_hdf5(path, Everything(1))
    return path


def test_the_file_carries_checksums(saved):
    with h5py.File(saved, 'r') as f:
        m = f['model']
        for name in ('W', 'b', 'one', 'mask', 'counts', 'half'):
            assert m[name].fletcher32, name
        assert m['W'].compression == 'gzip'
        assert m['W'].id.get_num_chunks() > 1
        assert m['scale'].shape == () and not m['scale'].fletcher32
        for name in ('model/scale', 'optimizer/t', 'optimizer/epoch', 'optimizer/lr',
                     'optimizer/label'):
            assert hdf5.CHECKSUM_ATTRIBUTE in f[name].attrs, name
        assert m['empty'].shape == (0, 3)  # no data: nothing to damage


def test_round_trip_with_checksums(saved):
    dst = Everything(2)
    serializers.load_hdf5(saved, dst)
    _assert_same(_state(dst), _state(Everything(1)))


def test_a_flipped_byte_in_any_dataset_is_reported_and_changes_nothing(saved, tmp_path):
    places = _stored_data(saved)
    with_data = {name: where for name, where in places.items() if where}
    # every dataset holds data except the empty array
    assert sorted(set(places) - set(with_data)) == ['model/empty']
    assert len(with_data) == 15  # 7 of the model, 8 of the optimizer
    damaged = tmp_path / 'damaged.h5'
    checked = 0
    for name, where in sorted(with_data.items()):
        for offset, size in (where[0], where[-1]):
            for at in sorted({offset, offset + size // 2, offset + size - 1}):
                _flip(saved, damaged, at)
                dst = Everything(2)
                before = _state(dst)
                with pytest.raises(InvalidFileError, match='damaged') as info:
                    serializers.load_hdf5(damaged, dst)
                message = str(info.value)
                assert f"'/{name}'" in message and 'damaged.h5' in message, (name, at)
                _assert_same(_state(dst), before)
                checked += 1
    assert checked >= 3 * len(with_data)


def test_a_flipped_byte_in_stored_text_is_reported(saved, tmp_path):
    data = saved.read_bytes()
    at = data.find(f'{LABEL} 1'.encode())
    assert at > 0 and data.find(f'{LABEL} 1'.encode(), at + 1) < 0  # in the global heap
    damaged = tmp_path / 'text.h5'
    _flip(saved, damaged, at + 3)
    dst = Everything(2)
    with pytest.raises(InvalidFileError, match="'/optimizer/label'.*damaged"):
        serializers.load_hdf5(damaged, dst)
    assert dst.optimizer.label == f'{LABEL} 2'


def test_a_changed_checksum_attribute_is_reported(saved, tmp_path):
    damaged = tmp_path / 'attr.h5'
    shutil.copyfile(saved, damaged)
    with h5py.File(damaged, 'r+') as f:
        crc = int(f['optimizer/t'].attrs[hdf5.CHECKSUM_ATTRIBUTE])
        f['optimizer/t'].attrs[hdf5.CHECKSUM_ATTRIBUTE] = numpy.uint32(crc ^ 1)
    dst = Everything(2)
    with pytest.raises(InvalidFileError, match="'/optimizer/t'"):
        serializers.load_hdf5(damaged, dst)
    assert dst.optimizer.t == 5


def _write_like_chainer_7(path, obj):
    """The layout of Chainer 7.8.1's save_hdf5: gzip for arrays, no filter, no attribute."""
    with h5py.File(path, 'w') as f:
        def write(prefix, key, value):
            name = f'{prefix}/{key}'
            if isinstance(value, str):
                f.create_dataset(name, data=value, dtype=h5py.string_dtype())
                return value
            arr = numpy.asarray(value)
            f.create_dataset(name, data=arr, compression=4 if arr.size > 1 else None)
            return value

        class Writer:
            def __init__(self, prefix):
                self.prefix = prefix

            def __getitem__(self, key):
                return Writer(f'{self.prefix}/{key}')

            def __call__(self, key, value):
                return write(self.prefix, key, value)

        obj.serialize(Writer(''))


def test_a_file_without_checksums_still_loads(tmp_path):
    path = tmp_path / 'v7.h5'
    _write_like_chainer_7(path, Everything(1))
    with h5py.File(path, 'r') as f:
        assert not f['model/W'].fletcher32
        assert hdf5.CHECKSUM_ATTRIBUTE not in f['optimizer/t'].attrs
    dst = Everything(2)
    serializers.load_hdf5(path, dst)
    _assert_same(_state(dst), _state(Everything(1)))


def test_save_hdf5_is_atomic(tmp_path):
    path = tmp_path / 'model.h5'
    serializers.save_hdf5(path, Everything(1))
    before = path.read_bytes()

    class Failing:
        def serialize(self, s):
            s('x', numpy.ones(3))
            raise RuntimeError('failed midway')

    with pytest.raises(RuntimeError, match='midway'):
        serializers.save_hdf5(path, Failing())
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['model.h5']
