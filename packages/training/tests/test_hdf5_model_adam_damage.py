"""A model and its Adam optimizer saved with save_hdf5: a flipped byte in the data of any
dataset (parameters, Adam's ``m``, ``v``, ``t``, ``epoch``) is reported on load, and the
model and optimizer are left as they were."""

import shutil

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import optimizers, serializers
from chainer.serializers import InvalidFileError

h5py = pytest.importorskip('h5py')


class Both:
    """Saves a model and its optimizer in one file."""

    def __init__(self, seed, steps):
        rng = numpy.random.RandomState(seed)
        self.model = chainer.Sequential(L.Linear(6, 40), L.Linear(40, 3))
        for p in self.model.params():
            p.array[...] = rng.randn(*p.shape)
        self.optimizer = optimizers.Adam(alpha=0.01).setup(self.model)
        x = rng.randn(8, 6).astype(numpy.float32)
        for _ in range(steps):
            self.optimizer.update(lambda: chainer.functions.sum(self.model(x) ** 2))

    def serialize(self, s):
        self.model.serialize(s['model'])
        self.optimizer.serialize(s['optimizer'])


def _fingerprint(both):
    return {k: numpy.array(v, copy=True) for k, v in serializers.npz.serialize(both).items()}


def _data_places(path):
    places = {}

    def visit(name, node):
        if isinstance(node, h5py.Dataset) and node.id.get_storage_size():
            if node.chunks is not None:
                info = node.id.get_chunk_info(0)
                places[name] = (info.byte_offset, info.size)
            else:
                places[name] = (node.id.get_offset(), node.id.get_storage_size())

    with h5py.File(path, 'r') as f:
        f.visititems(visit)
    return places


def test_every_damaged_dataset_is_reported_and_nothing_changes(tmp_path):
    path = tmp_path / 'both.h5'
    serializers.save_hdf5(path, Both(0, steps=3))
    places = _data_places(path)
    names = set(places)
    for param in ('0/W', '0/b', '1/W', '1/b'):
        assert f'model/{param}' in names
        assert {f'optimizer/{param}/m', f'optimizer/{param}/v'} <= names
    assert {'optimizer/t', 'optimizer/epoch'} <= names
    damaged = tmp_path / 'damaged.h5'
    for name, (offset, size) in sorted(places.items()):
        shutil.copyfile(path, damaged)
        with open(damaged, 'r+b') as f:
            f.seek(offset + size // 2)
            byte = f.read(1)[0]
            f.seek(offset + size // 2)
            f.write(bytes([byte ^ 0x01]))
        target = Both(1, steps=2)
        before = _fingerprint(target)
        with pytest.raises(InvalidFileError, match='damaged') as info:
            serializers.load_hdf5(damaged, target)
        assert f"'/{name}'" in str(info.value) and 'damaged.h5' in str(info.value)
        after = _fingerprint(target)
        assert after.keys() == before.keys()
        for key in before:
            numpy.testing.assert_array_equal(after[key], before[key], err_msg=key)
    assert len(places) == 18  # 4 parameters; m, v, t of each; t, epoch


def test_the_undamaged_file_loads(tmp_path):
    path = tmp_path / 'both.h5'
    source = Both(0, steps=3)
    serializers.save_hdf5(path, source)
    target = Both(1, steps=2)
    serializers.load_hdf5(path, target)
    assert target.optimizer.t == 3
    expected = _fingerprint(source)
    for key, value in _fingerprint(target).items():
        numpy.testing.assert_array_equal(value, expected[key], err_msg=key)
