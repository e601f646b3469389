"""Data-parallel training: the multi-node optimizer, evaluator and dataset scattering."""

import copy
from unittest import mock

import numpy
import pytest
from _mn_helpers import MLP, classification_data, same_on_all

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions


@pytest.fixture(params=['naive', 'flat'])
def comm(request):
    return chainermn.create_communicator(request.param)


def _params(model):
    return {name: p.array.copy() for name, p in sorted(model.namedparams())}


@pytest.mark.parametrize('make_optimizer', [
    lambda: chainer.optimizers.SGD(lr=0.5),
    lambda: chainer.optimizers.Adam(alpha=0.05),
    lambda: chainer.optimizers.MomentumSGD(lr=0.1),
])
def test_steps_equal_one_process_on_the_concatenated_batch(comm, make_optimizer):
    """N steps on per-process batches give the parameters of N steps of one process on
    their concatenation (the mean of equal-size batch means is the global mean)."""
    n_steps, local_batch = 4, 3
    x, t = classification_data(n_steps * local_batch * comm.size, seed=3)
    numpy.random.seed(comm.rank)  # different initial parameters on every process
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(make_optimizer(), comm)
    assert optimizer.setup(model) is optimizer
    optimizer.update()  # the first update broadcasts the parameters of rank 0
    assert optimizer.t == 0
    assert all(same_on_all(comm, p.array) for p in model.params())

    reference = copy.deepcopy(model)
    ref_optimizer = make_optimizer().setup(reference)
    for step in range(n_steps):
        batch = slice(step * local_batch * comm.size, (step + 1) * local_batch * comm.size)
        xs, ts = x[batch], t[batch]
        mine = slice(comm.rank * local_batch, (comm.rank + 1) * local_batch)
        optimizer.update(model, xs[mine], ts[mine])
        ref_optimizer.update(reference, xs, ts)
    assert optimizer.t == n_steps
    got, want = _params(model), _params(reference)
    for name in want:
        numpy.testing.assert_allclose(got[name], want[name], rtol=1e-4, atol=1e-5,
                                      err_msg=name)
        assert same_on_all(comm, got[name])


def test_optimizer_stands_for_the_actual_one(comm):
    actual = chainer.optimizers.SGD(lr=0.1)
    optimizer = chainermn.create_multi_node_optimizer(actual, comm)
    optimizer.setup(L.Linear(2, 2))
    assert optimizer.lr == 0.1
    optimizer.lr = 0.01
    assert actual.lr == 0.01
    assert optimizer.target is actual.target


def test_optimizer_broadcasts_again_after_the_model_changes(comm):
    model = chainer.Chain()
    with model.init_scope():
        model.a = L.Linear(2, 3)
    actual = chainer.GradientMethod()
    actual.create_update_rule = mock.MagicMock
    optimizer = chainermn.create_multi_node_optimizer(actual, comm)
    optimizer.setup(model)
    optimizer.update()
    assert actual.t == 0
    with model.init_scope():
        model.c = L.Linear(4, 4)
    model.c.W.array[...] = comm.rank
    optimizer.setup(model)
    optimizer.update()  # broadcast, no update
    assert actual.t == 0
    numpy.testing.assert_array_equal(model.c.W.array, 0)
    for p in model.params():
        p.grad = numpy.full_like(p.array, comm.rank)
    optimizer.update()
    assert actual.t == 1
    numpy.testing.assert_allclose(model.a.W.grad, (comm.size - 1) / 2)
    model.c.W.update_rule.update.assert_called_once_with(model.c.W)


def test_lazily_initialized_parameters_are_broadcast_when_they_appear(comm):
    numpy.random.seed(comm.rank)
    model = L.Classifier(L.Linear(None, 2))
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(), comm)
    optimizer.setup(model)
    x = numpy.random.rand(4, 3).astype(numpy.float32)
    t = numpy.zeros(4, numpy.int32)
    optimizer.update(model, x, t)  # W appears (different on every process): broadcast
    assert optimizer.t == 0
    assert same_on_all(comm, model.predictor.W.array)
    optimizer.update(model, x, t)
    assert optimizer.t == 1
    assert same_on_all(comm, model.predictor.W.array)


def test_hooks_see_the_mean_gradient(comm):
    model = L.Linear(2, 1, initialW=numpy.zeros((1, 2)), initial_bias=numpy.zeros(1))
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(lr=1.0), comm)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(1.0))
    optimizer.update()
    for p in model.params():
        p.grad = numpy.full_like(p.array, 3.0 * (comm.rank + 1))
    optimizer.update()
    mean = 3.0 * (comm.size + 1) / 2
    norm = mean * numpy.sqrt(3)
    numpy.testing.assert_allclose(model.W.array, -mean / norm * numpy.ones((1, 2)), rtol=1e-5)


def test_double_buffering_updates_with_the_previous_mean(comm):
    model = L.Linear(2, 2, initialW=numpy.zeros((2, 2)), initial_bias=numpy.zeros(2))
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.SGD(lr=1.0), comm, double_buffering=True)
    optimizer.setup(model)
    optimizer.update()  # broadcast
    history = []
    for step in range(3):
        for p in model.params():
            p.grad = numpy.full_like(p.array, (step + 1) * (comm.rank + 1))
        optimizer.update()
        optimizer.wait()
        numpy.testing.assert_allclose(optimizer.communicated_target.W.grad,
                                      (step + 1) * (comm.size + 1) / 2)
        history.append(model.W.array.copy())
    mean = (comm.size + 1) / 2
    numpy.testing.assert_allclose(history[0], 0)  # nothing averaged yet
    numpy.testing.assert_allclose(history[1], -mean)  # step 0's mean
    numpy.testing.assert_allclose(history[2], -3 * mean)  # + step 1's mean
    assert optimizer.t == 2


def _trainer(comm, out, n_train=24, n_test=12, epochs=2):
    x, t = classification_data(n_train + n_test, seed=1)
    dataset = chainer.datasets.TupleDataset(x, t)
    train, test = chainer.datasets.split_dataset(dataset, n_train)
    train = chainermn.scatter_dataset(train if comm.rank == 0 else None, comm)
    test = chainermn.scatter_dataset(test if comm.rank == 0 else None, comm)
    numpy.random.seed(comm.rank)
    model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.Adam(alpha=0.01), comm).setup(model)
    train_iter = chainer.iterators.SerialIterator(train, 4, shuffle=False)
    test_iter = chainer.iterators.SerialIterator(test, 4, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer)
    trainer = training.Trainer(updater, (epochs, 'epoch'), out=out)
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(test_iter, model), comm)
    return trainer, model, evaluator, (x[n_train:], t[n_train:])


def test_multi_node_evaluator_averages_over_processes(comm, tmp_path):
    size = comm.size
    trainer, model, evaluator, (x_test, t_test) = _trainer(comm, str(tmp_path),
                                                           n_test=12 * size)
    trainer.extend(evaluator, trigger=(1, 'epoch'))
    trainer.run()
    assert all(same_on_all(comm, p.array) for p in model.params())
    result = evaluator()
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        y = model.predictor(x_test)
        loss = float(F.softmax_cross_entropy(y, t_test).array)
        accuracy = float(F.accuracy(y, t_test).array)
    # each process holds 12 examples, in batches of 4: the mean of the means is the mean
    numpy.testing.assert_allclose(float(result['validation/main/loss']), loss, rtol=1e-5)
    numpy.testing.assert_allclose(float(result['validation/main/accuracy']), accuracy,
                                  rtol=1e-5)
    assert evaluator._mn_communicator is comm


def test_multi_node_evaluator_needs_the_same_keys(comm):
    if comm.size < 2:
        pytest.skip('needs 2 processes')
    evaluator = mock.MagicMock()
    evaluator.evaluate.return_value = {f'key{comm.rank}': 1.0}
    evaluator = chainermn.create_multi_node_evaluator(evaluator, comm)
    with pytest.raises(ValueError, match='different values'):
        evaluator.evaluate()
