"""MultithreadIterator: same batches as SerialIterator, errors surface, restartable."""

import threading

import numpy
import pytest
from _datasets_serial import DictReader, DictWriter

from chainer.iterators import MultithreadIterator, SerialIterator, ShuffleOrderSampler


def sampler(seed):
    return ShuffleOrderSampler(numpy.random.RandomState(seed))


@pytest.mark.parametrize('n_threads', [1, 3])
def test_same_batches_as_serial_iterator(n_threads):
    data = list(range(13))
    serial = SerialIterator(data, 5, order_sampler=sampler(1))
    it = MultithreadIterator(data, 5, order_sampler=sampler(1), n_threads=n_threads)
    for _ in range(6):
        assert it.next() == serial.next()
        assert it.epoch_detail == pytest.approx(serial.epoch_detail)
    it.finalize()


def test_reads_in_threads_and_raises_dataset_errors():
    names = set()

    class Recording:
        def __len__(self):
            return 4

        def __getitem__(self, i):
            names.add(threading.current_thread().name)
            if i == 3:
                raise IndexError('broken example')
            return i

    it = MultithreadIterator(Recording(), 2, shuffle=False, n_threads=2)
    assert it.next() == [0, 1]
    with pytest.raises(IndexError, match='broken'):
        it.next()
    assert it.epoch_detail == 0.5
    assert all(name.startswith('MultithreadIterator') for name in names)
    it.finalize()


def test_reset_and_use_after_finalize():
    it = MultithreadIterator(list(range(4)), 2, repeat=False, shuffle=False)
    assert it.next() == [0, 1]
    it.finalize()
    it.reset()
    assert list(it) == [[0, 1], [2, 3]]
    it.finalize()


def test_snapshot_round_trip():
    it = MultithreadIterator(list(range(6)), 4, order_sampler=sampler(2))
    first = it.next()
    store = {}
    it.serialize(DictWriter(store))
    second = it.next()
    resumed = MultithreadIterator(list(range(6)), 4, order_sampler=sampler(2))
    resumed.serialize(DictReader(store))
    assert resumed.next() == second and first != second
    it.finalize()
    resumed.finalize()


def test_bad_arguments():
    with pytest.raises(ValueError, match='n_threads'):
        MultithreadIterator([1], 1, n_threads=0)
    with pytest.raises(ValueError, match='batch_size'):
        MultithreadIterator([1], 0)
