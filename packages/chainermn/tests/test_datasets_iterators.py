import itertools

import numpy
import pytest
from _mn_helpers import needs_processes

import chainer
import chainermn
from chainermn.datasets.scatter import _scatter_index


@pytest.fixture
def comm():
    return chainermn.create_communicator('naive')


@pytest.mark.parametrize('n,size', [(10, 3), (9, 2), (1, 4), (0, 3), (1000, 7)])
def test_scatter_index_shares(n, size):
    equal = list(_scatter_index(n, size, True))
    lengths = {e - b for _, b, e in equal}
    assert len(lengths) == 1 and lengths.pop() == -(-n // size)
    assert all(0 <= b <= e <= n for _, b, e in equal)
    assert set().union(*(range(b, e) for _, b, e in equal)) == set(range(n))
    disjoint = list(_scatter_index(n, size, False))
    assert [r for r, _, _ in disjoint] == list(range(size))
    assert sum(e - b for _, b, e in disjoint) == n
    for (_, _, e), (_, b, _) in itertools.pairwise(disjoint):
        assert e == b
    lengths = [e - b for _, b, e in disjoint]
    assert max(lengths) - min(lengths) <= 1


def test_scatter_index_of_this_process(comm):
    b, e = chainermn.scatter_index(10 if comm.rank == 0 else None, comm,
                                   force_equal_length=False)
    shares = comm.gather_obj((b, e))
    if comm.rank == 0:
        assert shares == [(b, e) for _, b, e in _scatter_index(10, comm.size, False)]


@pytest.mark.parametrize('shuffle', [False, True])
@pytest.mark.parametrize('make', [
    lambda n: list(range(n)),
    lambda n: numpy.arange(n, dtype=numpy.float32) * 2,
    lambda n: chainer.datasets.TupleDataset(numpy.arange(n), numpy.arange(n) * 10),
])
def test_scatter_dataset(comm, shuffle, make):
    n = 5 * comm.size + 1
    root = comm.size - 1
    mine = chainermn.scatter_dataset(make(n) if comm.rank == root else None, comm,
                                     root=root, shuffle=shuffle, seed=3)
    assert isinstance(mine, chainer.datasets.SubDataset)
    shares = comm.gather_obj([mine[i] for i in range(len(mine))], root=root)
    if comm.rank == root:
        full = make(n)
        key = (lambda e: tuple(int(v) for v in e)) if isinstance(full[0], tuple) else \
            (lambda e: int(e))
        assert len({len(s) for s in shares}) == 1
        assert {key(e) for s in shares for e in s} == {key(full[i]) for i in range(n)}


def test_scatter_dataset_disjoint_shares(comm):
    n = 4 * comm.size + 1
    mine = chainermn.scatter_dataset(list(range(n)) if comm.rank == 0 else None, comm,
                                     force_equal_length=False)
    shares = comm.allreduce_obj(list(mine[:]))
    assert sorted(shares) == list(range(n))


def test_scatter_dataset_accepts_an_mpi4py_communicator(comm):
    mine = chainermn.scatter_dataset(list(range(comm.size)) if comm.rank == 0 else None,
                                     comm.mpi_comm)
    assert list(mine[:]) == [comm.rank]


def test_scatter_dataset_checks_max_buf_len(comm):
    with pytest.raises(ValueError, match='max_buf_len'):
        chainermn.scatter_dataset([1], comm, max_buf_len=0)


def test_create_empty_dataset():
    empty = chainermn.datasets.create_empty_dataset(numpy.arange(7))
    assert len(empty) == 7 and all(e == () for e in empty)
    assert chainermn.datasets.create_empty_dataset([]) == []


@pytest.mark.parametrize('paired', [False, True])
@pytest.mark.parametrize('batch_size', [4, 7])
def test_multi_node_iterator_gives_every_process_the_same_batches(comm, paired, batch_size):
    n = 30
    x = numpy.arange(n, dtype=numpy.float32)
    data = list(zip(x, numpy.arange(n, dtype=numpy.int32) % 3)) if paired else x
    numpy.random.seed(comm.rank)  # each process's own iterator would shuffle otherwise
    master = comm.size - 1
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(data, batch_size, shuffle=True), comm,
        rank_master=master)
    for _ in range(12):
        batch = it.next()
        everyone = comm.gather_obj(batch, root=master)
        if comm.rank == master:
            assert all(b == batch for b in everyone)
        assert comm.allreduce_obj(it.epoch) == comm.size * it.epoch
        assert comm.allreduce_obj(int(it.is_new_epoch)) in (0, comm.size)
    if paired:
        assert isinstance(batch[0], tuple) and batch[0][1].dtype == numpy.int32
    assert it.batch_size == batch_size  # read from the wrapped iterator


def test_multi_node_iterator_stops_everywhere(comm):
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(numpy.arange(5.0), 2, repeat=False), comm)
    assert [len(b) for b in it] == [2, 2, 1]
    with pytest.raises(StopIteration):
        it.next()


def test_multi_node_iterator_rejects_non_numeric_batches_everywhere(comm):
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(['a', 'b'], 1), comm)
    with pytest.raises(TypeError, match='numbers or numeric arrays'):
        it.next()


def test_multi_node_iterator_serialization_gives_the_master_state(comm):
    data = numpy.arange(6, dtype=numpy.float32)
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(data, 2, shuffle=False), comm)
    first = it.next()
    saved = chainer.serializers.DictionarySerializer()
    saved.save(it)  # collective
    resumed = chainer.iterators.SerialIterator(data, 2, shuffle=False)
    chainer.serializers.NpzDeserializer(saved.target).load(resumed)
    assert resumed.epoch_detail == pytest.approx(1 / 3)
    rest = resumed.next() + resumed.next()
    assert sorted(first + rest) == data.tolist()


@needs_processes(2)
def test_synchronized_iterator_shuffles_alike(comm):
    numpy.random.seed(comm.rank)
    it = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(numpy.arange(20), 6, shuffle=True), comm)
    for _ in range(8):
        batch = numpy.asarray(it.next())
        everyone = comm.allgather(batch)
        assert all(numpy.array_equal(batch, b) for b in everyone)


def test_synchronized_iterator_rejects_custom_samplers(comm):
    it = chainer.iterators.SerialIterator(numpy.arange(4), 2,
                                          order_sampler=lambda order, pos: order)
    with pytest.raises(TypeError, match='ShuffleOrderSampler'):
        chainermn.iterators.create_synchronized_iterator(it, comm)
