"""DatasetMixin indexing with 0-d arrays, and PickleDataset's readers."""

import io
import pickle

import numpy
import pytest

from chainer.dataset import DatasetMixin
from chainer.datasets import PickleDataset, open_pickle_dataset
from chainer.datasets.pickle_dataset import PickleDatasetWriter


class _Squares(DatasetMixin):
    def __len__(self):
        return 5

    def get_example(self, i):
        if not isinstance(i, int):
            raise AssertionError(f'get_example got {type(i).__name__}')
        return i * i


def test_zero_dim_integer_array_is_one_index():
    d = _Squares()
    assert d[numpy.array(3)] == 9
    assert d[numpy.array([1, 2])] == [1, 4]


def test_zero_dim_float_array_is_refused():
    # it used to reach get_example as an array
    with pytest.raises(TypeError, match='integer'):
        _Squares()[numpy.array(1.0)]


def test_pickle_dataset_from_an_in_memory_file():
    buf = io.BytesIO()
    w = PickleDatasetWriter(buf)
    for x in ({'a': 1}, [2, 3], numpy.arange(3)):
        w.write(x)
    w.flush()
    d = PickleDataset(buf)
    assert len(d) == 3 and d[0] == {'a': 1} and d[1] == [2, 3]
    numpy.testing.assert_array_equal(d[2], [0, 1, 2])


def test_open_pickle_dataset_reads_through_its_file_reader(tmp_path):
    path = tmp_path / 'x.pkl'
    with open(path, 'wb') as f:
        for i in range(4):
            pickle.dump(('row', i), f)
    with open_pickle_dataset(path) as d:
        assert len(d) == 4
        assert d[3] == ('row', 3) and d[0] == ('row', 0)
        reader = d._reader
        reader.seek(0)
        assert reader.tell() == 0 and reader.read(1) == b'\x80'
