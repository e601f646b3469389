"""Seeded shuffles of the iterators, order samplers and random splits equal Chainer 7.8.1's.

Each case seeds NumPy with 0 and returns the orders it produced and the next draw of
NumPy's global stream; the values were recorded from Chainer 7.8.1
(``tools/compat/record_seeded.py``). With ``seed=None`` the random splits use a fresh
unseeded RandomState (as in v7), so only their sizes and the untouched global stream
are compared.
"""

import numpy
import pytest

from chainer import datasets, iterators


def _batches(it, n=7):
    out = [int(i) for _ in range(n) for i in numpy.asarray(next(it)).ravel()]
    it.finalize()
    return out


def _reset_then_batches():
    it = iterators.SerialIterator(numpy.arange(10), 4, shuffle=True)
    first = [int(i) for i in next(it)]
    it.reset()
    return first + _batches(it, 4)


def _sampler():
    s = iterators.ShuffleOrderSampler()
    t = iterators.ShuffleOrderSampler(numpy.random.RandomState(2))
    return [s(numpy.arange(6), 0).tolist(), s(numpy.arange(6), 6).tolist(),
            t(numpy.arange(5), 0).tolist()]


def _parts(parts):
    return [[int(i) for i in p] for p in parts]


def _sizes(parts):
    return [len(p) for p in parts]


CASES = {
    'SerialIterator': lambda: _batches(
        iterators.SerialIterator(numpy.arange(10), 4, shuffle=True)),
    'SerialIterator_reset': _reset_then_batches,
    'SerialIterator_order_sampler': lambda: _batches(iterators.SerialIterator(
        numpy.arange(10), 3,
        order_sampler=iterators.ShuffleOrderSampler(numpy.random.RandomState(3)))),
    'ShuffleOrderSampler': _sampler,
    'MultiprocessIterator': lambda: _batches(iterators.MultiprocessIterator(
        numpy.arange(10), 4, shuffle=True, n_processes=1)),
    'MultithreadIterator': lambda: _batches(iterators.MultithreadIterator(
        numpy.arange(10), 4, shuffle=True)),
    'split_dataset_random_seed': lambda: _parts(
        datasets.split_dataset_random(numpy.arange(12), 5, 3)),
    'split_dataset_random_unseeded': lambda: _sizes(
        datasets.split_dataset_random(numpy.arange(12), 5)),
    'split_dataset_n_random_seed': lambda: _parts(
        datasets.split_dataset_n_random(numpy.arange(12), 3, 6)),
    'get_cross_validation_datasets_random_seed': lambda: [
        _parts(pair) for pair in datasets.get_cross_validation_datasets_random(
            numpy.arange(10), 3, seed=4)],
    'get_cross_validation_datasets_random_unseeded': lambda: [
        _sizes(pair) for pair in datasets.get_cross_validation_datasets_random(
            numpy.arange(10), 3)],
}
NAMES = sorted(CASES)


def summarize(name):
    """``(orders, next draw of the global stream)`` after seeding NumPy with 0."""
    numpy.random.seed(0)
    orders = CASES[name]()
    return orders, int(numpy.random.randint(2 ** 31))


# Recorded with Chainer 7.8.1 (tools/compat/record_seeded.py).
RECORDED = {
    'MultiprocessIterator':
        ([2, 8, 4, 9, 1, 6, 7, 3, 0, 5, 3, 5, 1, 2, 9, 8, 0, 6, 7, 4, 2, 3, 8, 4, 5, 1, 0, 6],
         1982038771),
    'MultithreadIterator':
        ([2, 8, 4, 9, 1, 6, 7, 3, 0, 5, 3, 5, 1, 2, 9, 8, 0, 6, 7, 4, 2, 3, 8, 4, 5, 1, 0, 6],
         1982038771),
    'SerialIterator':
        ([2, 8, 4, 9, 1, 6, 7, 3, 0, 5, 3, 5, 1, 2, 9, 8, 0, 6, 7, 4, 2, 3, 8, 4, 5, 1, 0, 6],
         636393364),
    'SerialIterator_order_sampler':
        ([5, 4, 1, 2, 9, 6, 7, 0, 3, 8, 3, 8, 2, 1, 9, 4, 0, 6, 7, 5, 0], 209652396),
    'SerialIterator_reset':
        ([2, 8, 4, 9, 3, 5, 1, 2, 9, 8, 0, 6, 7, 4, 2, 3, 8, 4, 5, 1], 636393364),
    'ShuffleOrderSampler': ([[5, 2, 1, 3, 0, 4], [1, 3, 4, 0, 2, 5], [2, 4, 1, 3, 0]], 1991416408),
    'get_cross_validation_datasets_random_seed':
        ([[[3, 8, 4, 9, 2, 6], [0, 1, 5, 7]], [[0, 1, 5, 7, 3, 8, 4], [9, 2, 6]],
          [[9, 2, 6, 0, 1, 5, 7], [3, 8, 4]]],
         209652396),
    'get_cross_validation_datasets_random_unseeded': ([[6, 4], [7, 3], [7, 3]], 209652396),
    'split_dataset_n_random_seed': ([[8, 11, 1, 6], [0, 7, 5, 2], [4, 3, 9, 10]], 209652396),
    'split_dataset_random_seed': ([[5, 4, 1, 2, 11], [6, 7, 0, 3, 9, 8, 10]], 209652396),
    'split_dataset_random_unseeded': ([5, 7], 209652396),
}


@pytest.mark.parametrize('name', NAMES)
def test_seeded_orders_match_chainer_v7(name):
    assert summarize(name) == RECORDED[name]
