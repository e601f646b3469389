import numpy
import pytest

from chainer.dataset import DatasetMixin
from chainer.datasets import TransformDataset, TupleDataset


def test_transform_applied_lazily():
    calls = []

    def double(example):
        calls.append(example)
        x, t = example
        return x * 2, t

    base = TupleDataset(numpy.arange(5, dtype=numpy.float32), numpy.arange(5))
    ds = TransformDataset(base, double)
    assert len(ds) == 5
    assert calls == []
    x, t = ds[3]
    assert x == 6.0 and t == 3
    assert [item[0] for item in ds[1:3]] == [2.0, 4.0]
    assert len(calls) == 3


def test_transform_must_be_callable():
    with pytest.raises(TypeError):
        TransformDataset([1, 2], 'not callable')


def test_dataset_mixin():
    class Squares(DatasetMixin):
        def __len__(self):
            return 4

        def get_example(self, i):
            return i * i

    ds = Squares()
    assert ds[3] == 9
    assert ds[::2] == [0, 4]
    assert ds[numpy.array([1, 3])] == [1, 9]
    assert ds[[2]] == [4]


def test_dataset_mixin_abstract():
    ds = DatasetMixin()
    with pytest.raises(NotImplementedError):
        len(ds)
    with pytest.raises(NotImplementedError):
        ds.get_example(0)
