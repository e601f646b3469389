"""Indexing DatasetMixin and TabularDataset: what kinds of index reach get_example."""

import numpy
import pytest

from chainer.dataset import DatasetMixin
from chainer.dataset.tabular import from_data


class _Recorder(DatasetMixin):
    def __init__(self):
        self.seen = []

    def __len__(self):
        return 5

    def get_example(self, i):
        self.seen.append(i)
        return i * 10


def test_numpy_integer_index_reaches_get_example_as_int():
    ds = _Recorder()
    assert ds[numpy.int64(3)] == 30
    assert ds[numpy.array(2)] == 20
    assert [type(i) for i in ds.seen] == [int, int]


def test_list_and_slice_indices_give_lists():
    ds = _Recorder()
    assert ds[[1, 4]] == [10, 40]
    assert ds[1:3] == [10, 20]


def test_non_integer_index_is_a_type_error():
    with pytest.raises(TypeError):
        _Recorder()[1.0]


def test_tabular_numpy_integer_index():
    ds = from_data(numpy.arange(6) * 2)
    assert ds[numpy.int32(4)] == 8
    with pytest.raises(TypeError):
        ds[2.0]
