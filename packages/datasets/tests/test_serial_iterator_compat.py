"""Details of SerialIterator that Chainer v7 code can observe."""

import numpy
import pytest

from chainer.iterators import SerialIterator


def test_previous_epoch_detail_after_stop_iteration():
    it = SerialIterator(numpy.arange(10), 4, repeat=False, shuffle=False)
    details = [(it.epoch_detail, it.previous_epoch_detail) for _ in it]
    assert details == [(0.4, 0.0), (0.8, 0.4), (1.0, 0.8)]
    with pytest.raises(StopIteration):
        next(it)
    assert it.epoch_detail == 1.0 and it.previous_epoch_detail == 1.0
