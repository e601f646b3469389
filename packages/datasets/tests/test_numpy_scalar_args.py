"""Datasets and iterators given NumPy integers (and 0-d arrays) as sizes and indices.

Each entry point is called with a Python int and with its NumPy twins and must give
the same result; floats and bools stay refused where an int is required.
"""

from __future__ import annotations

import numpy
import pytest

from chainer import datasets as D
from chainer import iterators as I
from chainer.dataset import concat_examples

TWINS = [numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint32,
         numpy.array]
IDS = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint32', '0-d']
DATA = list(range(10))


def _batches(it, n):
    return [next(it) for _ in range(n)]


@pytest.mark.parametrize('twin', TWINS, ids=IDS)
@pytest.mark.parametrize('batch_size', [1, 3, 4, 10])
def test_serial_iterator_batch_size(twin, batch_size):
    expected = I.SerialIterator(DATA, batch_size, shuffle=False)
    got = I.SerialIterator(DATA, twin(batch_size), shuffle=False)
    assert type(got.batch_size) is int
    assert _batches(got, 5) == _batches(expected, 5)
    assert got.epoch_detail == expected.epoch_detail
    assert type(got.epoch_detail) is float and type(got.epoch) is int


@pytest.mark.parametrize('twin', TWINS, ids=IDS)
def test_multithread_iterator_sizes(twin):
    it = I.MultithreadIterator(DATA, twin(3), shuffle=False, n_threads=twin(2))
    try:
        assert _batches(it, 4) == _batches(I.SerialIterator(DATA, 3, shuffle=False), 4)
    finally:
        it.finalize()


@pytest.mark.parametrize('twin', [numpy.int64, numpy.array], ids=['int64', '0-d'])
def test_multiprocess_iterator_sizes(twin):
    it = I.MultiprocessIterator(DATA, twin(3), shuffle=False, n_processes=twin(1),
                                n_prefetch=twin(1), shared_mem=twin(1 << 16))
    try:
        assert next(it) == [0, 1, 2]
    finally:
        it.finalize()


@pytest.mark.parametrize('bad', [3.0, numpy.float32(3), True, numpy.bool_(True),
                                 numpy.array(3.0), '3'])
def test_non_integer_batch_sizes_are_refused(bad):
    with pytest.raises(TypeError, match='batch_size must be an int'):
        I.SerialIterator(DATA, bad)


@pytest.mark.parametrize('bad', [2.0, True, numpy.float64(2)])
def test_non_integer_worker_counts_are_refused(bad):
    with pytest.raises(ValueError, match='n_threads must be a positive int'):
        I.MultithreadIterator(DATA, 2, n_threads=bad)


@pytest.mark.parametrize('twin', TWINS, ids=IDS)
@pytest.mark.parametrize('at', [0, 4, 10])
def test_split_dataset(twin, at):
    first, second = D.split_dataset(DATA, twin(at))
    assert list(first) == DATA[:at] and list(second) == DATA[at:]
    a, b = D.split_dataset_random(DATA, twin(at), seed=twin(7))
    c, d = D.split_dataset_random(DATA, at, seed=7)
    assert list(a) == list(c) and list(b) == list(d)


@pytest.mark.parametrize('twin', TWINS, ids=IDS)
def test_split_n_and_cross_validation(twin):
    assert [list(p) for p in D.split_dataset_n(DATA, twin(3))] == \
        [list(p) for p in D.split_dataset_n(DATA, 3)]
    assert [list(p) for p in D.split_dataset_n_random(DATA, twin(3), seed=twin(1))] == \
        [list(p) for p in D.split_dataset_n_random(DATA, 3, seed=1)]
    got = D.get_cross_validation_datasets(DATA, twin(3))
    expected = D.get_cross_validation_datasets(DATA, 3)
    assert [(list(a), list(b)) for a, b in got] == [(list(a), list(b)) for a, b in expected]


@pytest.mark.parametrize('bad', [4.0, True, numpy.array(4.5)])
def test_non_integer_split_points_are_refused(bad):
    with pytest.raises(TypeError, match='split_at must be an int'):
        D.split_dataset(DATA, bad)


@pytest.mark.parametrize('twin', TWINS, ids=IDS)
@pytest.mark.parametrize('make', [
    lambda: D.SubDataset(DATA, 2, 8),
    lambda: D.SubDataset(DATA, 0, 6, order=numpy.arange(9, -1, -1)),
    lambda: D.TransformDataset(DATA, lambda v: v * 2),
    lambda: D.ConcatenatedDataset(DATA[:3], DATA[3:]),
    lambda: D.TupleDataset(numpy.arange(10), numpy.arange(10) * 3),
    lambda: D.DictDataset(a=numpy.arange(10)),
], ids=['sub', 'sub-order', 'transform', 'concatenated', 'tuple', 'dict'])
def test_indexing_with_numpy_integers(make, twin):
    dataset = make()
    for i in range(min(len(dataset), 6)):
        assert repr(dataset[twin(i)]) == repr(dataset[i])
    assert repr(dataset[twin(1):twin(4)]) == repr(dataset[1:4])


@pytest.mark.parametrize('twin', [numpy.int32, numpy.float32, numpy.float64, numpy.array])
def test_concat_examples_padding(twin):
    batch = [numpy.arange(2, dtype=numpy.float32), numpy.arange(3, dtype=numpy.float32)]
    got = concat_examples(batch, padding=twin(-1))
    expected = concat_examples(batch, padding=-1)
    assert got.dtype == expected.dtype == numpy.float32
    numpy.testing.assert_array_equal(got, expected)
