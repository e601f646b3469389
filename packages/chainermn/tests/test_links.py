import copy

import numpy
import pytest
from _mn_helpers import needs_processes

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainermn.links import MultiNodeBatchNormalization


@pytest.fixture
def comm():
    return chainermn.create_communicator('naive')


def _batch(size, shape, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(*shape).astype(numpy.float64) * 2 + 1
    gy = rng.randn(*shape).astype(numpy.float64)
    return x, gy


@pytest.mark.parametrize('shape', [(4, 3), (2, 3, 5, 2)])
def test_mnbn_equals_batch_normalization_of_the_whole_batch(comm, shape):
    """Each process normalizes its part of the batch: outputs, input gradients and
    (averaged over processes) parameter gradients equal those of the whole batch."""
    n, r = comm.size, comm.rank
    local = shape[0]
    x, gy = _batch(n, (local * n, *shape[1:]))
    gamma = numpy.linspace(0.5, 1.5, shape[1])
    beta = numpy.linspace(-1, 1, shape[1])

    xv, gv, bv = (chainer.Variable(a.copy()) for a in (x, gamma, beta))
    y_ref = F.batch_normalization(xv, gv, bv, eps=1e-5)
    y_ref.grad = gy
    y_ref.backward()

    bn = MultiNodeBatchNormalization(shape[1], comm, eps=1e-5, dtype=numpy.float64)
    bn.gamma.array[...] = gamma
    bn.beta.array[...] = beta
    mine = slice(r * local, (r + 1) * local)
    xl = chainer.Variable(x[mine].copy())
    y = bn(xl)
    numpy.testing.assert_allclose(y.array, y_ref.array[mine], rtol=1e-10, atol=1e-12)
    y.grad = gy[mine] * n  # the local loss is a mean over the local batch
    bn.cleargrads()
    y.backward()
    numpy.testing.assert_allclose(xl.grad, xv.grad[mine] * n, rtol=1e-8, atol=1e-10)
    comm.multi_node_mean_grad(bn)
    numpy.testing.assert_allclose(bn.gamma.grad, gv.grad, rtol=1e-8)
    numpy.testing.assert_allclose(bn.beta.grad, bv.grad, rtol=1e-8)

    m = x.size // shape[1]
    axes = (0, *range(2, x.ndim))
    numpy.testing.assert_allclose(bn.avg_mean, 0.1 * x.mean(axis=axes), rtol=1e-10)
    numpy.testing.assert_allclose(bn.avg_var, 0.1 * x.var(axis=axes) * m / (m - 1),
                                  rtol=1e-10)
    with chainer.using_config('train', False):
        y_test = bn(x[mine])
    expected = (x[mine] - bn.avg_mean.reshape(1, -1, *([1] * (x.ndim - 2)))) / numpy.sqrt(
        bn.avg_var.reshape(1, -1, *([1] * (x.ndim - 2))) + 1e-5)
    expected = expected * gamma.reshape(1, -1, *([1] * (x.ndim - 2))) + \
        beta.reshape(1, -1, *([1] * (x.ndim - 2)))
    numpy.testing.assert_allclose(y_test.array, expected, rtol=1e-8)


def test_mnbn_float16_input_with_float32_parameters(comm):
    with chainer.using_config('dtype', chainer.mixed16):
        bn = MultiNodeBatchNormalization(3, comm)
    assert bn.gamma.dtype == numpy.float32 and bn.avg_mean.dtype == numpy.float32
    x = numpy.random.RandomState(1).randn(6, 3).astype(numpy.float16)
    y = bn(x)
    assert y.dtype == numpy.float16
    bn.cleargrads()
    F.sum(y * y).backward()
    assert bn.gamma.grad.dtype == numpy.float32


def test_mnbn_options_and_errors(comm):
    bn = MultiNodeBatchNormalization((2, 3), comm, use_gamma=False, use_beta=False)
    assert not hasattr(bn, 'gamma') and not hasattr(bn, 'beta')
    y = bn(numpy.random.randn(4, 2, 3).astype(numpy.float32))
    global_mean = comm.allreduce(y.array.sum(axis=0)) / (4 * comm.size)
    numpy.testing.assert_allclose(global_mean, 0, atol=1e-5)
    assert bn.communication_backend == 'mpi'
    for bad in ('nccl', 'dummy'):
        with pytest.raises(ValueError, match='communication_backend'):
            MultiNodeBatchNormalization(3, comm, communication_backend=bad)
    with pytest.raises(ValueError, match='channels'):
        bn(numpy.zeros((4, 3, 2), numpy.float32))
    copied = bn.copy(mode='copy')
    assert copied.comm is comm


def test_mnbn_finetune_accumulates_plain_means(comm):
    bn = MultiNodeBatchNormalization(2, comm, dtype=numpy.float64)
    rng = numpy.random.RandomState(comm.rank)
    means = []
    for _ in range(3):
        x = rng.randn(5, 2)
        bn(x, finetune=True)
        means.append(comm.allreduce(x.sum(axis=0)) / (5 * comm.size))
    assert bn.N == 3
    numpy.testing.assert_allclose(bn.avg_mean, numpy.mean(means, axis=0), rtol=1e-10)
    bn.start_finetuning()
    assert bn.N == 0


@pytest.mark.skipif(not hasattr(L, 'BatchNormalization'),
                    reason='chainer.links.BatchNormalization is not in chainer-links yet')
def test_create_mnbn_model_replaces_batch_normalization(comm):
    class Net(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 4)
                self.bn = L.BatchNormalization(4)
                self.seq = chainer.Sequential(L.BatchNormalization(4), F.relu)
                self.chains = chainer.ChainList(L.BatchNormalization(4))

        def forward(self, x):
            return self.chains[0](self.seq(self.bn(self.l(x))))

    model = Net()
    model.bn.gamma.array[...] = 2
    model.bn.avg_mean[...] = 5
    mn = chainermn.links.create_mnbn_model(model, comm)
    assert isinstance(model.bn, L.BatchNormalization)  # the original is unchanged
    assert isinstance(mn.bn, MultiNodeBatchNormalization)
    assert isinstance(mn.seq[0], MultiNodeBatchNormalization)
    assert isinstance(mn.chains[0], MultiNodeBatchNormalization)
    numpy.testing.assert_array_equal(mn.bn.gamma.array, 2)
    numpy.testing.assert_array_equal(mn.bn.avg_mean, 5)
    assert mn(numpy.zeros((2, 3), numpy.float32)).shape == (2, 4)


class Stage(chainer.Chain):
    def __init__(self, seed):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(4, 4, initialW=numpy.random.RandomState(seed).randn(4, 4))

    def forward(self, *xs):
        h = xs[0]
        for x in xs[1:]:
            h = h + x
        return F.tanh(self.l(h))


def _reference_ring(size, x, t):
    """The ring model of test_ring_model in one process: returns loss and gradients."""
    stages = [Stage(r) for r in range(size)]
    h = x
    for s in stages:
        h = s(h)
    loss = F.mean_squared_error(h, t)
    loss.backward()
    return float(loss.array), [s.l.W.grad.copy() for s in stages]


@needs_processes(2)
def test_ring_model_matches_one_process(comm):
    """Rank 0 feeds the model input to rank 1, ..., the last rank sends back to rank 0,
    which computes the loss."""
    r, n = comm.rank, comm.size
    x = numpy.linspace(-1, 1, 8).reshape(2, 4).astype(numpy.float32)
    t = numpy.zeros((2, 4), numpy.float32)
    want_loss, want_grads = _reference_ring(n, x, t)
    model = chainermn.MultiNodeChainList(comm)
    if r == 0:
        model.add_link(Stage(0), rank_in=None, rank_out=1)
        model.add_link(chainer.Sequential(F.identity), rank_in=n - 1, rank_out=None)
        loss = F.mean_squared_error(model(x), t)
        assert float(loss.array) == pytest.approx(want_loss, rel=1e-5)
        loss.backward()
        stage = model[0]
    else:
        model.add_link(Stage(r), rank_in=r - 1, rank_out=(r + 1) % n)
        model().backward()
        stage = model[0]
    numpy.testing.assert_allclose(stage.l.W.grad, want_grads[r], rtol=1e-5, atol=1e-7)


@needs_processes(2)
def test_branching_and_self_sends(comm):
    """Rank 0 sends to every other rank and to itself, then sums what comes back."""
    r, n = comm.rank, comm.size
    x = numpy.ones((1, 4), numpy.float32)
    model = chainermn.MultiNodeChainList(comm)
    if r == 0:
        others = list(range(1, n))
        model.add_link(Stage(0), rank_in=None, rank_out=[0, *others])
        model.add_link(Stage(10), rank_in=0, rank_out=0)
        model.add_link(Stage(20), rank_in=[0, *others], rank_out=None)
        y = model(x)
        F.sum(y).backward()
        # one process: the same computation with every other rank's stage
        stages = [Stage(0), Stage(10), Stage(20)] + [Stage(100 + i) for i in others]
        h = stages[0](x)
        y_ref = stages[2](stages[1](h), *[stages[3 + i](h) for i in range(len(others))])
        F.sum(y_ref).backward()
        numpy.testing.assert_allclose(y.array, y_ref.array, rtol=1e-5)
        for got, want in zip(model, stages[:3]):
            numpy.testing.assert_allclose(got.l.W.grad, want.l.W.grad, rtol=1e-5, atol=1e-7)
    else:
        model.add_link(Stage(100 + r), rank_in=0, rank_out=0)
        model().backward()


@needs_processes(2)
def test_tuples_between_processes(comm):
    if comm.rank > 1:
        return
    model = chainermn.MultiNodeChainList(comm)
    if comm.rank == 0:
        model.add_link(chainer.Sequential(lambda x: (x * 2, x * 3)), rank_in=None, rank_out=1)
        model.add_link(chainer.Sequential(F.identity), rank_in=1, rank_out=None)
        x = chainer.Variable(numpy.ones((1, 2), numpy.float32))
        F.sum(model(x)).backward()
        numpy.testing.assert_allclose(x.grad, 2 * 2 + 3 * 4)
    else:
        model.add_link(chainer.Sequential(lambda pair: pair[0] * 2 + pair[1] * 4),
                       rank_in=0, rank_out=0)
        model().backward()


def test_multi_node_chain_list_checks_ranks(comm):
    model = chainermn.MultiNodeChainList(comm)
    with pytest.raises(ValueError, match='rank_in'):
        model.add_link(L.Linear(2, 2), rank_in=comm.size)
    model.add_link(L.Linear(2, 2))
    with pytest.raises(ValueError, match='only one component'):
        model.add_link(L.Linear(2, 2))
    y = model(numpy.ones((1, 2), numpy.float32))
    assert y.shape == (1, 2)


class _FakeRNN(chainer.Link):
    """Stands for an NStepLSTM: (hx, cx, xs) -> (hy, cy, ys)."""

    n_cells = 2

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.full((1, 3), 0.5, numpy.float32))

    def forward(self, hx, cx, xs):
        h = F.sum(F.concat(xs, axis=0), axis=0, keepdims=True) * self.w
        if hx is not None:
            h = h + hx + cx
        return h, h * 2, [x * self.w for x in xs]


@needs_processes(2)
def test_multi_node_n_step_rnn_passes_states_along(comm):
    r, n = comm.rank, comm.size
    rnn = chainermn.links.create_multi_node_n_step_rnn(
        _FakeRNN(), comm, rank_in=r - 1 if r > 0 else None,
        rank_out=r + 1 if r < n - 1 else None)
    xs = [numpy.ones((2, 3), numpy.float32)]
    hy, cy, ys, delegate = rnn(xs)
    if r < n - 1:
        assert delegate is not None
    else:
        assert delegate is None
    loss, = chainermn.functions.pseudo_connect(delegate, F.sum(hy))
    loss.backward()
    # h_0 = 1, h_r = 1 + 3 h_{r-1}: the last rank's loss is 3 * sum of the chain
    expected = sum(3 ** k for k in range(r + 1)) * 3
    numpy.testing.assert_allclose(hy.array, expected / 3 * 1.0)
    assert rnn.actual_rnn.w.grad is not None
    assert copy.deepcopy(rnn).communicator is comm
