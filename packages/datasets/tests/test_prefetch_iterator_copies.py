"""Copies and pickles of the prefetching iterators go on from the same position."""

import copy
import pickle

import numpy
import pytest

from chainer.iterators import MultithreadIterator


@pytest.mark.parametrize('clone', [copy.copy, lambda it: pickle.loads(pickle.dumps(it))],
                         ids=['copy', 'pickle'])
def test_multithread_iterator_clone_continues(clone):
    data = numpy.arange(10)
    it = MultithreadIterator(data, 3, shuffle=False, n_threads=2)
    numpy.testing.assert_array_equal(next(it), [0, 1, 2])
    twin = clone(it)
    try:
        # the clone starts its own threads and reads on from position 3
        numpy.testing.assert_array_equal(next(twin), [3, 4, 5])
        numpy.testing.assert_array_equal(next(it), [3, 4, 5])
        numpy.testing.assert_array_equal(next(twin), [6, 7, 8])
    finally:
        twin.finalize()
        it.finalize()
