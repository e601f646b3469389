import numpy
import pytest
from _mn_helpers import needs_processes

import chainer
import chainer.functions as F
import chainermn
import chainermn.functions as MF
from chainer import gradient_check


@pytest.fixture
def comm():
    return chainermn.create_communicator('naive')


def _weight(rank, n_in=5, n_out=5):
    return numpy.linspace(-1, 1, n_in * n_out).reshape(n_out, n_in).astype(numpy.float64) \
        * (rank + 1) / 2


def _pipeline_reference(size, x):
    """Forward and input gradient of the whole pipeline in one process."""
    x = chainer.Variable(x)
    h = x
    ws = [chainer.Variable(_weight(r)) for r in range(size)]
    for w in ws:
        h = F.tanh(F.linear(h, w))
    loss = F.sum(h * h)
    loss.backward()
    return h.array, [w.grad for w in ws], x.grad


@needs_processes(2)
def test_model_parallel_pipeline_matches_one_process(comm):
    """Stage r computes tanh(W_r h) and sends it on; the last stage computes the loss.
    Forward output and all gradients equal those of the whole pipeline in one process."""
    r, n = comm.rank, comm.size
    x0 = numpy.linspace(0, 1, 10).reshape(2, 5)
    w = chainer.Variable(_weight(r))
    y_ref, gw_ref, gx_ref = _pipeline_reference(n, x0)
    if r == 0:
        x = chainer.Variable(x0)
        phi = MF.send(F.tanh(F.linear(x, w)), comm, rank=1)
        assert phi.shape == () and phi.name == 'delegate_variable'
        phi.backward()
        numpy.testing.assert_allclose(x.grad, gx_ref, rtol=1e-10)
    else:
        h = MF.recv(comm, rank=r - 1)
        y = F.tanh(F.linear(h, w))
        if r < n - 1:
            MF.send(y, comm, rank=r + 1).backward()
        else:
            numpy.testing.assert_allclose(y.array, y_ref, rtol=1e-10)
            F.sum(y * y).backward()
    numpy.testing.assert_allclose(w.grad, gw_ref[r], rtol=1e-10)


@needs_processes(2)
def test_round_trip_with_delegate_variable(comm):
    """Rank 0 sends to rank 1 and gets the result back: the delegate of the send, given
    to the recv, carries backward from the second part of the graph to the first."""
    if comm.rank > 1:
        return
    w = chainer.Variable(numpy.array([[2.0, -1.0], [0.5, 3.0]]))
    if comm.rank == 0:
        x = chainer.Variable(numpy.array([[1.0, 2.0]]))
        phi = MF.send(x * 3, comm, rank=1)
        back = MF.recv(comm, rank=1, delegate_variable=phi)
        F.sum(back).backward()
        # back = (3x) W^T, so d sum / dx = 3 * column sums of W
        numpy.testing.assert_allclose(x.grad, [[7.5, 6.0]])
    else:
        h = MF.recv(comm, rank=0)
        MF.send(F.linear(h, w), comm, rank=0).backward()


@needs_processes(2)
def test_send_tuple_and_arrays_without_gradient(comm):
    if comm.rank > 1:
        return
    if comm.rank == 0:
        a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
        b = numpy.arange(4, dtype=numpy.float16)  # a plain array: needs no gradient
        MF.send([a, b], comm, rank=1).backward()
        numpy.testing.assert_array_equal(a.grad, numpy.full((2, 3), 2, numpy.float32))
        phi = MF.send(numpy.zeros(3), comm, rank=1)  # nothing needs a gradient
        phi.backward()  # still receives the peer's gradients, so it does not hang
    else:
        ys = MF.recv(comm, rank=0)
        assert isinstance(ys, tuple) and ys[1].dtype == numpy.float16
        F.sum(ys[0] * 2).backward()  # no gradient for ys[1]: zeros are sent for it
        one = MF.recv(comm, rank=0, force_tuple=True)
        assert isinstance(one, tuple) and len(one) == 1
        F.sum(one[0]).backward()


def test_send_and_recv_reject_bad_ranks(comm):
    with pytest.raises(ValueError, match='itself'):
        MF.send(numpy.zeros(1), comm, rank=comm.rank)
    with pytest.raises(ValueError, match='rank must be'):
        MF.recv(comm, rank=comm.size)


def _loss_weights(rank, size, shape):
    """Distinct weights per (process, piece) so that gradients show where they come from."""
    return [numpy.full(shape, 10 * rank + i + 1, numpy.float64) for i in range(size)]


def test_allgather_gradient_sums_over_processes(comm):
    r, n = comm.rank, comm.size
    x = chainer.Variable(numpy.full((2, 3), float(r)))
    ys = MF.allgather(comm, x)
    assert len(ys) == n
    for i, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, i)
    ws = _loss_weights(r, n, (2, 3))
    sum(F.sum(y * w) for y, w in zip(ys, ws)).backward()
    # every process p weighs piece r with 10 p + r + 1
    numpy.testing.assert_allclose(x.grad, sum(10 * p + r + 1 for p in range(n)))


def test_alltoall_gradient_goes_back(comm):
    r, n = comm.rank, comm.size
    xs = [chainer.Variable(numpy.full((r + 1,), float(10 * r + j))) for j in range(n)]
    ys = MF.alltoall(comm, xs)
    for src, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, numpy.full((src + 1,), 10 * src + r))
    ws = _loss_weights(r, n, ())
    sum(F.sum(y * w) for y, w in zip(ys, ws)).backward()
    for j, x in enumerate(xs):  # process j weighed what came from r with 10 j + r + 1
        numpy.testing.assert_allclose(x.grad, 10 * j + r + 1)
    with pytest.raises(ValueError, match='one variable per process'):
        MF.alltoall(comm, xs + xs)


def test_bcast_gradient_sums_on_root(comm):
    r, n = comm.rank, comm.size
    root = n - 1
    x = chainer.Variable(numpy.arange(4.0)) if r == root else None
    y = MF.bcast(comm, x, root=root)
    numpy.testing.assert_array_equal(y.array, numpy.arange(4.0))
    F.sum(y * (r + 1)).backward()
    if r == root:
        numpy.testing.assert_allclose(x.grad, n * (n + 1) / 2)
    with pytest.raises(ValueError, match='must give'):
        if r == root:
            MF.bcast(comm, None, root=root)
        else:
            raise ValueError('must give')  # keep the processes in step


def test_gather_and_scatter_gradients(comm):
    r, n = comm.rank, comm.size
    x = chainer.Variable(numpy.full((r + 1, 2), float(r)))
    out = MF.gather(comm, x, root=0)
    if r == 0:
        assert [y.shape for y in out] == [(i + 1, 2) for i in range(n)]
        sum(F.sum(y * (i + 2)) for i, y in enumerate(out)).backward()
    else:
        assert out.shape == ()
        out.backward()
    numpy.testing.assert_allclose(x.grad, r + 2)

    xs = [chainer.Variable(numpy.full((i + 1,), float(i))) for i in range(n)]
    y = MF.scatter(comm, xs if r == 0 else None, root=0)
    numpy.testing.assert_array_equal(y.array, numpy.full((r + 1,), float(r)))
    F.sum(y * (r + 3)).backward()
    if r == 0:
        for i, xi in enumerate(xs):
            numpy.testing.assert_allclose(xi.grad, i + 3)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_collectives_keep_dtype(comm, dtype):
    x = chainer.Variable(numpy.ones((2,), dtype))
    ys = MF.allgather(comm, x)
    assert all(y.dtype == dtype for y in ys)
    sum(F.sum(y) for y in ys).backward()
    assert x.grad.dtype == dtype


def test_pseudo_connect_forward_and_gradient():
    delegate = numpy.random.uniform(-1, 1, (3, 2))
    xs = (numpy.random.uniform(-1, 1, (4, 5)), numpy.random.uniform(-1, 1, ()))
    ys = MF.pseudo_connect(chainer.Variable(delegate), *[chainer.Variable(x) for x in xs])
    assert isinstance(ys, tuple) and len(ys) == 2
    for x, y in zip(xs, ys):
        numpy.testing.assert_array_equal(y.array, x)
    gys = tuple(numpy.random.uniform(-1, 1, x.shape) for x in xs)
    gradient_check.check_backward(MF.pseudo_connect, (delegate, *xs), gys)


def test_pseudo_connect_without_delegate_passes_through():
    x = numpy.ones(2)
    y, = MF.pseudo_connect(None, x)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_array_equal(y.array, x)


def test_pseudo_connect_reaches_the_delegate_graph():
    a = chainer.Variable(numpy.array(2.0))
    seen = []

    class Spy(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1,

        def backward(self, indexes, grad_outputs):
            seen.append(float(grad_outputs[0].array))
            return grad_outputs

    delegate, = Spy().apply((a,))
    b = chainer.Variable(numpy.array(3.0))
    y, = MF.pseudo_connect(delegate, b)
    (y * 5).backward()
    assert seen == [0.0]
    assert float(b.grad) == 5.0 and float(a.grad) == 0.0
