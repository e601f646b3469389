import numpy
import pytest

from chainer.datasets import DictDataset, TupleDataset


def make():
    x = numpy.arange(12, dtype=numpy.float32).reshape(6, 2)
    t = numpy.arange(6, dtype=numpy.int32) * 10
    return x, t, TupleDataset(x, t)


def test_len_and_item():
    x, t, ds = make()
    assert len(ds) == 6
    xi, ti = ds[4]
    numpy.testing.assert_array_equal(xi, x[4])
    assert ti == 40
    xi, ti = ds[-1]
    numpy.testing.assert_array_equal(xi, x[5])
    assert ti == 50


def test_slice_gives_list_of_tuples():
    x, t, ds = make()
    part = ds[1:5:2]
    assert isinstance(part, list)
    assert len(part) == 2
    for (xi, ti), j in zip(part, [1, 3], strict=True):
        numpy.testing.assert_array_equal(xi, x[j])
        assert ti == t[j]


def test_lists_are_accepted():
    ds = TupleDataset([1, 2, 3], ['a', 'b', 'c'])
    assert ds[1] == (2, 'b')
    assert ds[:2] == [(1, 'a'), (2, 'b')]


def test_out_of_range():
    _, _, ds = make()
    with pytest.raises(IndexError):
        ds[6]


def test_bad_construction():
    with pytest.raises(ValueError):
        TupleDataset()
    with pytest.raises(ValueError, match='length'):
        TupleDataset(numpy.zeros(3), numpy.zeros(4))


def test_dict_dataset():
    ds = DictDataset(x=numpy.arange(4), t=[5, 6, 7, 8])
    assert len(ds) == 4
    assert ds[2] == {'x': 2, 't': 7}
    assert ds[1:3] == [{'x': 1, 't': 6}, {'x': 2, 't': 7}]
    with pytest.raises(ValueError):
        DictDataset(x=[1, 2], t=[1])
    with pytest.raises(ValueError):
        DictDataset()
