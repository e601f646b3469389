"""chainer.dataset.tabular: from_data, views, and use with the iterators."""

import numpy
import pytest

from chainer.dataset import TabularDataset, concat_examples, tabular
from chainer.iterators import SerialIterator


def table():
    return tabular.from_data({'x': numpy.arange(10) * 10, 'y': list('abcdefghij')})


def test_from_data_columns_and_fetch():
    ds = table()
    assert isinstance(ds, TabularDataset) and len(ds) == 10 and ds.mode is dict
    assert set(ds.keys) == {'x', 'y'}
    assert ds[3] == {'x': 30, 'y': 'd'}
    assert ds[1:3] == [{'x': 10, 'y': 'b'}, {'x': 20, 'y': 'c'}]
    fetched = ds.fetch()
    numpy.testing.assert_array_equal(fetched['x'], numpy.arange(10) * 10)
    assert fetched['y'] == list('abcdefghij')
    converted = ds.convert(fetched)
    assert isinstance(converted['y'], numpy.ndarray)


def test_slice_rows_and_keys():
    ds = table().astuple()
    view = ds.slice[[True, False] * 5, ('y', 0)]
    assert view.keys == ('y', 'x') and view.mode is tuple and len(view) == 5
    assert view[1] == ('c', 20)
    single = ds.slice[::-3, 'x']
    assert single.mode is None and list(single) == [90, 60, 30, 0]
    with pytest.raises(ValueError, match='mask'):
        ds.slice[[True] * 3]
    with pytest.raises(IndexError):
        ds.slice[[10]]
    with pytest.raises(KeyError):
        ds.slice[:, 'z']


def test_concat_keeps_the_order_of_rows():
    a = tabular.from_data(('v', numpy.arange(4)))
    b = tabular.from_data(('v', numpy.arange(10, 13)))
    both = a.concat(b)
    assert len(both) == 7
    assert both.slice[[5, 0, 6, 1]].fetch() == [11, 0, 12, 1]
    assert list(both.slice[::-2]) == [12, 10, 2, 0]
    with pytest.raises(ValueError, match='same keys'):
        a.concat(tabular.from_data(('w', numpy.arange(2))))


def test_join_transform_and_converter():
    a = tabular.from_data(('a', numpy.arange(5)))
    b = tabular.from_data(('b', numpy.arange(5) * 2))
    joined = a.join(b)
    assert joined.keys == ('a', 'b') and joined.mode is tuple
    summed = joined.transform(('s', 'd'), lambda a, b: {'s': a + b, 'd': b - a})
    assert summed.mode is dict and summed[2] == {'s': 6, 'd': 2}
    batch = joined.transform_batch('p', lambda a, b: a * b)
    assert batch.mode is None
    numpy.testing.assert_array_equal(batch.fetch(), numpy.arange(5) ** 2 * 2)
    with pytest.raises(ValueError, match='same length'):
        a.join(tabular.from_data(('c', numpy.arange(3))))
    with pytest.raises(ValueError, match='appears in two'):
        a.join(a)
    converted = joined.with_converter(lambda a, b: a.sum() + b.sum()).convert(joined.fetch())
    assert converted == 30


def test_from_data_functions_need_a_key_and_a_size():
    squares = tabular.from_data(('sq', lambda i: i * i), size=4)
    assert list(squares) == [0, 1, 4, 9]
    with pytest.raises(ValueError, match='key'):
        tabular.from_data(lambda i: i, size=3)
    with pytest.raises(ValueError, match='size'):
        tabular.from_data(('sq', lambda i: i))
    with pytest.raises(ValueError, match='different lengths'):
        tabular.from_data((numpy.arange(3), numpy.arange(4)))


def test_delegate_dataset_forwards():
    inner = table()
    outer = tabular.DelegateDataset(inner)
    assert outer.dataset is inner and outer.keys == inner.keys and outer[0] == inner[0]


def test_serial_iterator_reads_a_tabular_dataset_in_one_call():
    calls = []

    class Counting(tabular.DelegateDataset):
        def get_examples(self, indices, key_indices):
            calls.append(indices)
            return super().get_examples(indices, key_indices)

    ds = Counting(tabular.from_data((numpy.arange(8.0), numpy.arange(8))))
    it = SerialIterator(ds, 4, shuffle=False)
    x, t = concat_examples(it.next())
    numpy.testing.assert_array_equal(x, [0., 1., 2., 3.])
    assert calls == [[0, 1, 2, 3]]
