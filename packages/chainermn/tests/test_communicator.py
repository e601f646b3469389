import copy
import warnings

import numpy
import pytest
from _mn_helpers import needs_processes

import chainer
import chainer.links as L
import chainermn
from chainermn import nccl
from chainermn.communicators import _communication_utility as utility
from chainermn.communicators.flat_communicator import FlatCommunicator
from chainermn.communicators.naive_communicator import NaiveCommunicator

CPU_NAMES = ['naive', 'flat']
NCCL_NAMES = ['pure_nccl', 'single_node', 'hierarchical', 'two_dimensional', 'non_cuda_aware']


@pytest.fixture(params=CPU_NAMES)
def comm(request):
    c = chainermn.create_communicator(request.param)
    yield c
    c.finalize()


def test_create_communicator_classes_and_topology():
    from mpi4py import MPI

    naive = chainermn.create_communicator('naive')
    flat = chainermn.create_communicator('flat', mpi_comm=MPI.COMM_WORLD)
    assert isinstance(naive, NaiveCommunicator)
    assert isinstance(flat, FlatCommunicator)
    assert isinstance(naive, chainermn.CommunicatorBase)
    assert naive.rank == MPI.COMM_WORLD.rank
    assert naive.size == MPI.COMM_WORLD.size
    assert 0 <= naive.intra_rank < naive.intra_size
    assert 0 <= naive.inter_rank < naive.inter_size
    assert naive.intra_size * naive.inter_size == naive.size  # one host here
    assert naive.mpi_comm is MPI.COMM_WORLD


def test_create_communicator_bad_name_and_config():
    with pytest.raises(ValueError, match='unknown communicator'):
        chainermn.create_communicator('fast')
    with pytest.raises(ValueError, match='allreduce_grad_dtype'):
        chainermn.create_communicator('naive', allreduce_grad_dtype=numpy.float16)


@pytest.mark.skipif(nccl.available(), reason='NCCL is available here')
@pytest.mark.parametrize('name', NCCL_NAMES)
def test_nccl_communicators_say_what_is_missing(name):
    assert nccl.get_build_version() == 0
    with pytest.raises(RuntimeError, match=f'the {name} communicator needs NCCL.*naive'):
        chainermn.create_communicator(name)


def test_config_values_and_scope(comm):
    assert comm.batched_copy is True
    assert comm.get_config('batched_copy') is True
    comm.set_config('batched_copy', False)
    assert comm.batched_copy is False
    comm.set_config('batched_copy')
    assert comm.get_config() == {'batched_copy': True}
    with pytest.raises(ValueError, match='no configuration'):
        comm.set_config('no such thing')
    with pytest.raises(ValueError, match='no configuration'):
        comm.get_config('no such thing')
    with comm.config_scope():
        comm.custom = 3
    assert comm.get_config('custom') == 3
    with pytest.raises(AttributeError):
        comm.undefined_attribute


def test_copies_share_the_communicator(comm):
    assert copy.copy(comm) is comm
    assert copy.deepcopy({'c': comm})['c'] is comm


def _arrays(rank):
    return [
        numpy.arange(12, dtype=numpy.float32).reshape(3, 4) + rank,
        numpy.array(rank + 0.5, dtype=numpy.float64),                   # 0-dim
        numpy.zeros((0, 3), dtype=numpy.int32),                         # empty
        (numpy.arange(24, dtype=numpy.float16).reshape(4, 6) + rank)[:, ::2],  # strided
        numpy.array([True, False, rank % 2 == 0]),
    ]


@needs_processes(2)
def test_send_recv_arrays_and_tuples(comm):
    if comm.rank == 0:
        for a in _arrays(0):
            comm.send(a, dest=1, tag=3)
        comm.send(_arrays(0), dest=1, tag=4)
    elif comm.rank == 1:
        for want in _arrays(0):
            got = comm.recv(source=0, tag=3)
            assert got.dtype == want.dtype and got.shape == want.shape
            numpy.testing.assert_array_equal(got, want)
        got = comm.recv(source=0, tag=4)
        assert isinstance(got, tuple) and len(got) == 5
        for g, w in zip(got, _arrays(0)):
            numpy.testing.assert_array_equal(g, w)


def test_send_rejects_bad_input(comm):
    with pytest.raises(ValueError, match='dest must be a rank'):
        comm.send(numpy.zeros(2), dest=comm.size, tag=0)
    with pytest.raises(TypeError, match='_obj methods'):
        comm.send([1, 2], dest=0, tag=0)


def test_bcast_gather_allgather_scatter_alltoall(comm):
    r, n = comm.rank, comm.size
    for root in range(n):
        data = numpy.arange(5, dtype=numpy.int64) * (root + 1)
        got = comm.bcast(data if r == root else None, root=root)
        numpy.testing.assert_array_equal(got, data)

    mine = numpy.full((r + 1, 2), r, dtype=numpy.float32)  # shapes differ between ranks
    gathered = comm.gather(mine, root=n - 1)
    if r == n - 1:
        assert [g.shape for g in gathered] == [(i + 1, 2) for i in range(n)]
        for i, g in enumerate(gathered):
            numpy.testing.assert_array_equal(g, i)
    else:
        assert gathered is None
    everyone = comm.allgather(numpy.array(r * 10))
    assert [int(a) for a in everyone] == [i * 10 for i in range(n)]

    pieces = [numpy.full(i + 2, i, numpy.float64) for i in range(n)]
    got = comm.scatter(pieces if r == 0 else None, root=0)
    numpy.testing.assert_array_equal(got, pieces[r])

    outgoing = [numpy.full((r + 1,), 100 * r + j, numpy.int32) for j in range(n)]
    incoming = comm.alltoall(outgoing)
    assert len(incoming) == n
    for src, a in enumerate(incoming):
        numpy.testing.assert_array_equal(a, numpy.full((src + 1,), 100 * src + r))
    with pytest.raises(ValueError, match='one array per process'):
        comm.alltoall([numpy.zeros(1)] * (n + 1))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64, numpy.int32])
def test_allreduce_sums_in_the_input_dtype(comm, dtype):
    x = (numpy.arange(6).reshape(2, 3) + comm.rank).astype(dtype)
    y = comm.allreduce(x)
    assert y.dtype == dtype
    expected = numpy.arange(6).reshape(2, 3) * comm.size + sum(range(comm.size))
    numpy.testing.assert_allclose(y, expected)


def test_object_transfers(comm):
    r, n = comm.rank, comm.size
    assert comm.bcast_obj({'from': r} if r == 0 else None) == {'from': 0}
    big = list(range(1000))
    assert comm.bcast_obj(big if r == 0 else None, max_buf_len=64) == big
    assert comm.gather_obj(('rank', r), root=0) == ([('rank', i) for i in range(n)]
                                                    if r == 0 else None)
    assert comm.allreduce_obj(r + 1) == n * (n + 1) // 2
    if n > 1:
        from mpi4py import MPI

        if r == 0:
            comm.send_obj({'x': 1}, dest=1, tag=7)
        elif r == 1:
            status = MPI.Status()
            assert comm.recv_obj(source=0, status=status) == {'x': 1}
            assert status.Get_tag() == 7


def test_chunked_bcast_obj_checks_the_buffer_length(comm):
    obj = numpy.arange(100)
    got = utility.chunked_bcast_obj(obj if comm.rank == 0 else None, comm.mpi_comm, 7, 0)
    numpy.testing.assert_array_equal(got, obj)
    for bad in (0, -1, utility.INT_MAX):
        with pytest.raises(ValueError, match='max_buf_len'):
            utility.chunked_bcast_obj(obj, comm.mpi_comm, bad, 0)


def test_split(comm):
    sub = comm.split(comm.rank % 2, comm.rank)
    assert type(sub) is type(comm)
    assert sub.size == len(range(comm.rank % 2, comm.size, 2))
    total = sub.allreduce(numpy.array([comm.rank]))
    assert int(total[0]) == sum(range(comm.rank % 2, comm.size, 2))


class Model(chainer.Chain):
    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.a = L.Linear(2, 3, initialW=chainer.initializers.Normal(dtype=dtype),
                              initial_bias=chainer.initializers.Zero(dtype=dtype))
            self.b = L.Linear(3, 4, initialW=chainer.initializers.Normal(dtype=dtype),
                              initial_bias=chainer.initializers.Zero(dtype=dtype))
            self.lazy = L.Linear(None, 2)  # uninitialized: skipped


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_multi_node_mean_grad(comm, dtype):
    model = Model(dtype)
    n, r = comm.size, comm.rank
    for _ in range(2):
        model.a.W.grad[...] = r
        model.a.b.grad[...] = 2 * r
        model.b.W.grad[...] = numpy.arange(12).reshape(4, 3) * (r + 1)
        model.b.b.grad[...] = r + 1
        comm.multi_node_mean_grad(model)
        mean_r = (n - 1) / 2
        numpy.testing.assert_allclose(model.a.W.grad, mean_r)
        numpy.testing.assert_allclose(model.a.b.grad, 2 * mean_r)
        numpy.testing.assert_allclose(model.b.W.grad,
                                      numpy.arange(12).reshape(4, 3) * (mean_r + 1))
        assert model.a.W.grad.dtype == dtype
        assert model.lazy.W.array is None and model.lazy.W.grad is None


def test_multi_node_mean_grad_zero_fill(comm):
    model = Model()
    for p in model.params():
        if p.array is not None:
            p.grad[...] = comm.rank + 1
    model.b.b.grad = None if comm.rank % 2 else model.b.b.grad  # unused on odd ranks
    comm.multi_node_mean_grad(model, zero_fill=True)
    expected = sum(i + 1 for i in range(comm.size) if i % 2 == 0) / comm.size
    numpy.testing.assert_allclose(model.b.b.grad, expected)
    numpy.testing.assert_allclose(model.a.W.grad, (comm.size + 1) / 2)


def test_multi_node_mean_grad_skips_missing_gradients_without_zero_fill(comm):
    model = Model()
    for p in model.params():
        if p.array is not None:
            p.grad[...] = comm.rank
    model.b.b.grad = None  # on every process
    comm.multi_node_mean_grad(model)
    assert model.b.b.grad is None
    numpy.testing.assert_allclose(model.b.W.grad, (comm.size - 1) / 2)


def test_debug_mode_reports_diverged_gradients(comm):
    model = Model()  # fresh parameters have NaN gradients
    with chainer.using_config('debug', True), pytest.raises(ValueError, match='diverged'):
        comm.multi_node_mean_grad(model)


def test_allreduce_grad_is_deprecated(comm):
    model = Model()
    for p in model.params():
        if p.array is not None:
            p.grad[...] = comm.rank
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        comm.allreduce_grad(model)
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    numpy.testing.assert_allclose(model.a.W.grad, (comm.size - 1) / 2)


def test_bcast_data(comm):
    model = Model()
    model.a.W.array[...] = comm.rank + 1
    model.b.b.array[...] = -comm.rank
    comm.bcast_data(model)
    numpy.testing.assert_array_equal(model.a.W.array, 1)
    numpy.testing.assert_array_equal(model.b.b.array, 0)


def test_mean_grad_of_large_and_small_gradients_together(comm):
    model = chainer.ChainList(L.Linear(300, 300), L.Linear(3, 2))  # 360 KB and tiny
    for i, p in enumerate(sorted(model.namedparams())):
        p[1].grad = numpy.full_like(p[1].array, (comm.rank + 1) * (i + 1))
    big = model[0].W.grad
    comm.multi_node_mean_grad(model)
    assert model[0].W.grad is big  # reduced where it is
    for i, (_, p) in enumerate(sorted(model.namedparams())):
        numpy.testing.assert_allclose(p.grad, (comm.size + 1) / 2 * (i + 1))
