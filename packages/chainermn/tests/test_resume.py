"""Checkpoints and snapshots of a multi-node job, and resuming from them."""

import os
import shutil
import tempfile
import warnings

import numpy
import pytest
from _mn_helpers import MLP, classification_data, same_on_all

import chainer
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions
from chainermn.extensions import _multi_node_snapshot
from chainermn.extensions.checkpoint import _CheckpointStats


@pytest.fixture
def comm():
    return chainermn.create_communicator('naive')


@pytest.fixture
def shared_dir(comm):
    """A directory all processes use (they run on one machine here)."""
    path = tempfile.mkdtemp(prefix='chainermn-test-') if comm.rank == 0 else None
    path = comm.bcast_obj(path)
    yield path
    comm.mpi_comm.barrier()
    if comm.rank == 0:
        shutil.rmtree(path, ignore_errors=True)


class _Crash(Exception):
    pass


def _make_trainer(comm, out, epochs, seed):
    x, t = classification_data(8 * comm.size * 3, seed=5)
    train = chainermn.scatter_dataset(
        chainer.datasets.TupleDataset(x, t) if comm.rank == 0 else None, comm,
        shuffle=True, seed=0)
    numpy.random.seed(seed + comm.rank)  # each process starts from other parameters
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(alpha=0.02),
                                                      comm).setup(model)
    # (no shuffling: the random state of a shuffling iterator is not in snapshots)
    iterator = chainer.iterators.SerialIterator(train, 4, shuffle=False)
    updater = training.StandardUpdater(iterator, optimizer)
    return training.Trainer(updater, (epochs, 'epoch'), out=out), model, optimizer


def _crash_at(iteration):
    def crash(trainer):
        if trainer.updater.iteration == iteration:
            raise _Crash()
    return crash


def _params(model):
    return [p.array.copy() for _, p in sorted(model.namedparams())]


def _uninterrupted(comm, out, epochs):
    trainer, model, _ = _make_trainer(comm, out, epochs, seed=0)
    trainer.run()
    return _params(model), trainer.updater.iteration


def test_multi_node_snapshot_resume_equals_uninterrupted(comm, shared_dir):
    want, iterations = _uninterrupted(comm, os.path.join(shared_dir, 'full'), 3)

    out = os.path.join(shared_dir, 'resumed')
    trainer, _, _ = _make_trainer(comm, out, 3, seed=0)
    trainer.extend(chainermn.extensions.multi_node_snapshot(
        comm, extensions.snapshot(autoload=True), []), trigger=(1, 'epoch'))
    trainer.extend(_crash_at(iterations // 3 + 2))  # during epoch 2, after snapshot 1
    with pytest.raises(_Crash):
        trainer.run()
    comm.mpi_comm.barrier()
    files = sorted(os.listdir(out)) if comm.rank == 0 else None
    assert comm.bcast_obj(files) == [f'snapshot_iter_{iterations // 3}.0']

    trainer, model, optimizer = _make_trainer(comm, out, 3, seed=100)  # other parameters
    trainer.extend(chainermn.extensions.multi_node_snapshot(
        comm, extensions.snapshot(autoload=True), []), trigger=(1, 'epoch'))
    trainer.run()  # rank 0 loads the snapshot, the others receive its state
    assert trainer.updater.iteration == iterations
    for got, expected in zip(_params(model), want):
        numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
        assert same_on_all(comm, got)


def test_checkpointer_resume_equals_uninterrupted(comm, shared_dir):
    want, iterations = _uninterrupted(comm, os.path.join(shared_dir, 'full'), 3)
    path = os.path.join(shared_dir, 'checkpoints')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        checkpointer = chainermn.create_multi_node_checkpointer('run', comm, path=path)
        checkpointer2 = chainermn.create_multi_node_checkpointer('run', comm, path=path)

    trainer, _, _ = _make_trainer(comm, shared_dir, 3, seed=0)
    trainer.extend(checkpointer, trigger=(1, 'epoch'))
    trainer.extend(_crash_at(iterations // 3 + 1))
    with pytest.raises(_Crash):
        trainer.run()
    comm.mpi_comm.barrier()
    assert f'run.{comm.rank}.{iterations // 3}' in os.listdir(path)  # kept after a failure

    trainer, model, optimizer = _make_trainer(comm, shared_dir, 3, seed=100)
    checkpointer2.maybe_load(trainer, optimizer)
    assert trainer.updater.iteration == iterations // 3
    trainer.extend(checkpointer2, trigger=(1, 'epoch'))
    trainer.run()
    for got, expected in zip(_params(model), want):
        numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    comm.mpi_comm.barrier()
    assert not [f for f in os.listdir(path) if f.startswith(f'run.{comm.rank}.')]
    assert isinstance(checkpointer2.get_stats(), str)


def test_checkpointer_loads_the_newest_iteration_all_processes_have(comm, shared_dir):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        checkpointer = chainermn.create_multi_node_checkpointer(
            'gen', comm, cp_interval=2, gc_interval=1, path=shared_dir)
    model = L.Linear(2, 2)
    for it in (1, 2, 3):
        model.W.array[...] = it
        checkpointer.save(model, it)
    assert sorted(i for _, _, i in checkpointer._parse_filenames(os.listdir(shared_dir))) \
        == [2, 3]  # garbage collected down to cp_interval
    if comm.rank == 0 and comm.size > 1:  # iteration 3 is missing on rank 0
        os.remove(os.path.join(shared_dir, 'gen.0.3'))
    comm.mpi_comm.barrier()
    model.W.array[...] = -1
    checkpointer.maybe_load(model)
    numpy.testing.assert_array_equal(model.W.array, 2 if comm.size > 1 else 3)
    checkpointer.finalize()
    comm.mpi_comm.barrier()
    assert os.listdir(shared_dir) == []


def test_checkpoint_file_names(comm):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        checkpointer = chainermn.create_multi_node_checkpointer('a.b', comm)
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    names = checkpointer._filenames([3, 10])
    assert names == [f'a.b.{comm.rank}.3', f'a.b.{comm.rank}.10']
    parsed = list(checkpointer._parse_filenames(names + ['other.0.1', 'a.b.x.1']))
    assert parsed == [('a.b', comm.rank, 3), ('a.b', comm.rank, 10)]
    stats = _CheckpointStats()
    assert isinstance(stats.report(), str)
    stats.start()
    stats.end()
    assert stats.report().startswith('1 checkpoint')


@pytest.mark.parametrize('replica_sets,size,expected', [
    ([0], 4, [{0}, {1, 2, 3}]),
    ([[0, 1], [2, 3]], 4, [{0, 1}, {2, 3}]),
    ([], 3, [{0, 1, 2}]),
    ([range(0, 6, 2)], 6, [{0, 2, 4}, {1, 3, 5}]),
])
def test_replica_sets(replica_sets, size, expected):
    assert _multi_node_snapshot._parse_replica_sets(replica_sets, size) == expected


@pytest.mark.parametrize('bad', [[[0], [0, 1]], [5]])
def test_replica_sets_reject_bad_ranks(bad):
    with pytest.raises(ValueError, match='distinct ranks'):
        _multi_node_snapshot._parse_replica_sets(bad, 4)


def test_snapshot_masters_and_file_names(comm):
    snapshot = chainermn.extensions.multi_node_snapshot(
        comm, extensions.snapshot(filename='snap_{.updater.iteration}'), [0])
    expect_master = comm.rank in (0, 1)  # sets {0} and {1, 2, ...}
    assert snapshot.is_master == expect_master
    if expect_master:
        assert snapshot.snapshot.filename == f'snap_{{.updater.iteration}}.{comm.rank}'
