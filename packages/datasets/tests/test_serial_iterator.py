import numpy
import pytest
from _datasets_serial import DictReader, DictWriter

from chainer.dataset import Iterator
from chainer.iterators import OrderSampler, SerialIterator, ShuffleOrderSampler


def test_is_an_iterator():
    it = SerialIterator([1, 2], 1)
    assert isinstance(it, Iterator)
    assert iter(it) is it


def test_no_shuffle_exact_batches_and_epochs():
    it = SerialIterator(list(range(6)), 4, shuffle=False)
    assert it.epoch == 0 and it.epoch_detail == 0.0
    assert it.previous_epoch_detail is None
    assert it.next() == [0, 1, 2, 3]
    assert not it.is_new_epoch
    assert it.epoch_detail == pytest.approx(4 / 6)
    assert it.previous_epoch_detail == 0.0
    # The batch that crosses the end of the epoch is completed from the next one.
    assert next(it) == [4, 5, 0, 1]
    assert it.is_new_epoch and it.epoch == 1
    assert it.epoch_detail == pytest.approx(1 + 2 / 6)
    assert it.previous_epoch_detail == pytest.approx(4 / 6)
    assert next(it) == [2, 3, 4, 5]
    assert it.is_new_epoch and it.epoch == 2
    assert it.epoch_detail == 2.0


def test_shuffle_visits_every_example_once_per_epoch():
    numpy.random.seed(0)
    n, bs = 10, 5
    it = SerialIterator(list(range(n)), bs, shuffle=True)
    orders = []
    for _ in range(3):
        epoch = next(it) + next(it)
        assert it.is_new_epoch
        assert sorted(epoch) == list(range(n))
        orders.append(epoch)
    assert orders[0] != orders[1] or orders[1] != orders[2]
    assert orders[0] != list(range(n))


def test_shuffle_default_is_true():
    it = SerialIterator(list(range(50)), 50)
    numpy.random.seed(1)
    it.reset()
    assert next(it) != list(range(50))


def test_repeat_false_stops_with_short_last_batch():
    it = SerialIterator(list(range(5)), 2, repeat=False, shuffle=False)
    assert list(it) == [[0, 1], [2, 3], [4]]
    assert it.epoch == 1 and it.is_new_epoch
    with pytest.raises(StopIteration):
        it.next()
    it.reset()
    assert it.epoch == 0
    assert next(it) == [0, 1]


def test_reset_restarts():
    it = SerialIterator(list(range(5)), 3, shuffle=False)
    next(it)
    next(it)
    it.reset()
    assert it.epoch == 0 and it.current_position == 0 and not it.is_new_epoch
    assert it.previous_epoch_detail is None
    assert next(it) == [0, 1, 2]


def test_batch_larger_than_dataset():
    it = SerialIterator([0, 1, 2], 7, shuffle=False)
    assert next(it) == [0, 1, 2, 0, 1, 2, 0]
    assert it.epoch == 2
    assert it.epoch_detail == pytest.approx(2 + 1 / 3)


def test_numpy_dataset_and_tuple_dataset():
    it = SerialIterator(numpy.arange(6).reshape(3, 2), 2, shuffle=False)
    batch = next(it)
    assert isinstance(batch, list) and len(batch) == 2
    numpy.testing.assert_array_equal(batch[1], [2, 3])


def test_order_sampler():
    class Reverse(OrderSampler):
        def __call__(self, current_order, current_position):
            return numpy.arange(len(current_order))[::-1]

    it = SerialIterator(list('abcd'), 3, order_sampler=Reverse())
    assert next(it) == ['d', 'c', 'b']
    assert next(it) == ['a', 'd', 'c']


def test_shuffle_order_sampler_with_random_state():
    s1 = ShuffleOrderSampler(numpy.random.RandomState(5))
    s2 = ShuffleOrderSampler(numpy.random.RandomState(5))
    a = SerialIterator(list(range(20)), 20, order_sampler=s1)
    b = SerialIterator(list(range(20)), 20, order_sampler=s2)
    assert next(a) == next(b)
    expected = numpy.random.RandomState(5).permutation(20)
    assert SerialIterator(list(range(20)), 20, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(5))).next() == list(expected)


def test_order_sampler_decides_the_epoch_size():
    # As in v7, an order may repeat examples: its length is the epoch size.
    class Twice(OrderSampler):
        def __call__(self, current_order, current_position):
            return numpy.repeat(numpy.arange(3), 2)

    it = SerialIterator([10, 11, 12], 4, order_sampler=Twice())
    assert next(it) == [10, 10, 11, 11]
    assert it.epoch_detail == pytest.approx(4 / 6)
    assert next(it) == [12, 12, 10, 10] and it.is_new_epoch and it.epoch == 1


def test_order_sampler_changing_the_length_is_an_error():
    class Shrinking(OrderSampler):
        def __init__(self):
            self.calls = 0

        def __call__(self, current_order, current_position):
            self.calls += 1
            return numpy.arange(4 - self.calls)

    it = SerialIterator([1, 2, 3], 3, order_sampler=Shrinking())
    with pytest.raises(ValueError, match='order sampler'):
        it.next()


def test_bad_arguments():
    with pytest.raises(ValueError):
        SerialIterator([1, 2], 0)
    with pytest.raises(TypeError):
        SerialIterator([1, 2], 1.0)
    with pytest.raises(ValueError, match='empty'):
        SerialIterator([], 1)
    with pytest.raises(ValueError, match='order_sampler'):
        SerialIterator([1, 2], 1, shuffle=True, order_sampler=ShuffleOrderSampler())


@pytest.mark.parametrize('shuffle', [False, True])
def test_serialize_round_trip(shuffle):
    numpy.random.seed(2)
    data = list(range(7))
    it = SerialIterator(data, 3, shuffle=shuffle)
    for _ in range(3):
        next(it)
    writer = DictWriter()
    it.serialize(writer)
    numpy.random.seed(7)  # fixes the orders of the epochs drawn after the snapshot
    expected = [next(it) for _ in range(5)]
    expected_detail = it.epoch_detail

    numpy.random.seed(99)  # the restored order must come from the snapshot
    restored = SerialIterator(data, 3, shuffle=shuffle)
    restored.serialize(DictReader(writer.store))
    assert restored.epoch == 1
    assert restored.current_position == 2
    assert restored.is_new_epoch
    assert restored.previous_epoch_detail == pytest.approx(6 / 7)
    numpy.random.seed(7)
    assert [next(restored) for _ in range(5)] == expected
    assert restored.epoch_detail == expected_detail


def test_serialize_without_previous_epoch_detail():
    it = SerialIterator(list(range(4)), 2, shuffle=False)
    next(it)
    writer = DictWriter()
    it.serialize(writer)
    del writer.store['previous_epoch_detail']
    restored = SerialIterator(list(range(4)), 2, shuffle=False)
    restored.serialize(DictReader(writer.store))
    assert restored.previous_epoch_detail == 0.0
    assert next(restored) == [2, 3]


def test_context_manager_finalizes():
    with SerialIterator([1], 1) as it:
        assert next(it) == [1]


def _nested_datasets():
    from chainer.datasets import SubDataset, TransformDataset, TupleDataset, split_dataset_random

    x = numpy.arange(36, dtype=numpy.float32).reshape(12, 3)
    t = numpy.arange(12, dtype=numpy.int32)
    names = [f'n{i}' for i in range(12)]
    tuple_ds = TupleDataset(x, t, names)
    train, _ = split_dataset_random(tuple_ds, 10, seed=0)
    return {
        'tuple': tuple_ds,
        'sub': train,
        'sub_of_sub': SubDataset(train, 2, 9, order=list(range(9, -1, -1))),
        'transform': TransformDataset(train, lambda e: (e[0] * 2, e[1] + 1, e[2].upper())),
    }


@pytest.mark.parametrize('kind', ['tuple', 'sub', 'sub_of_sub', 'transform'])
@pytest.mark.parametrize('shuffle', [False, True])
def test_batched_fetch_matches_per_example_indexing(kind, shuffle):
    ds = _nested_datasets()[kind]
    plain = [ds[i] for i in range(len(ds))]

    def make(dataset):
        if not shuffle:
            return SerialIterator(dataset, 4, shuffle=False)
        sampler = ShuffleOrderSampler(numpy.random.RandomState(3))
        return SerialIterator(dataset, 4, order_sampler=sampler)

    a, b = make(ds), make(plain)
    for _ in range(7):
        got, expected = next(a), next(b)
        assert len(got) == len(expected) == 4
        for (gx, gt, gn), (ex, et, en) in zip(got, expected, strict=True):
            numpy.testing.assert_array_equal(gx, ex)
            assert gt == et and type(gt) is type(et)
            assert gn == en


def test_sub_dataset_batched_fetch_checks_range():
    ds = _nested_datasets()['sub']
    with pytest.raises(IndexError):
        ds._get_examples(numpy.array([0, 10]))
    with pytest.raises(IndexError):
        ds._get_examples(numpy.array([-1]))
