import numpy
import pytest

import chainer
import chainermn
from chainer import testing, training
from chainer.training import extension
from chainermn.extensions import (
    AllreducePersistent,
    GenericMultiNodeEvaluator,
    MultiNodeEarlyStoppingTrigger,
    ObservationAggregator,
)


@pytest.fixture
def comm():
    return chainermn.create_communicator('naive')


class WithStats(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.child = chainer.Link()
        self.add_persistent('mean', numpy.zeros(3, numpy.float32))
        self.child.add_persistent('var', numpy.zeros((2, 2), numpy.float64))
        self.add_persistent('count', 0)
        self.add_persistent('steps', numpy.zeros(2, numpy.int64))


def test_allreduce_persistent_averages_float_persistents(comm):
    model = WithStats()
    model.mean[...] = comm.rank
    model.child.var[...] = 2 * comm.rank
    model.count = comm.rank
    model.steps[...] = comm.rank
    ext = AllreducePersistent(model, comm)
    ext()
    mean = (comm.size - 1) / 2
    numpy.testing.assert_allclose(model.mean, mean)
    numpy.testing.assert_allclose(model.child.var, 2 * mean)
    assert model.mean.dtype == numpy.float32
    assert model.count == comm.rank  # integers are left alone
    numpy.testing.assert_array_equal(model.steps, comm.rank)


def _run_with_reporter(comm, value, as_variable, interval, iterations=4):
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=(iterations, 'iteration'))
    seen = []

    @extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_WRITER)
    def report(tr):
        v = numpy.asarray(value(tr.updater.iteration), dtype=numpy.float32)
        tr.observation['v'] = chainer.Variable(v) if as_variable else v

    @extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_READER)
    def read(tr):
        seen.append(tr.observation.get('v-all'))

    trainer.extend(report)
    trainer.extend(ObservationAggregator(comm, 'v', 'v-all',
                                         comm_trigger=(interval, 'iteration')))
    trainer.extend(read)
    trainer.run()
    return seen


@pytest.mark.parametrize('as_variable', [False, True])
@pytest.mark.parametrize('interval', [1, 2])
def test_observation_aggregator(comm, as_variable, interval):
    seen = _run_with_reporter(comm, lambda it: comm.rank * 10 + it, as_variable, interval)
    mean_rank = (comm.size - 1) / 2
    for it, value in enumerate(seen, start=1):
        if it % interval:
            assert value is None
            continue
        assert isinstance(value, chainer.Variable) == as_variable
        array = value.array if as_variable else value
        assert array.dtype == numpy.float32
        # the mean of this process's last `interval` values, averaged over processes
        expected = mean_rank * 10 + numpy.mean([it - k for k in range(interval)])
        numpy.testing.assert_allclose(array, expected, rtol=1e-6)


def test_multi_node_early_stopping_uses_the_global_mean(comm):
    # on each process the accuracy is scaled differently: only the mean matters
    accuracies = [0.5, 0.5, 0.6, 0.6, 0.7, 0.7, 0.6, 0.6, 0.4, 0.4, 0.3, 0.3, 0.2, 0.2]
    scale = 1 + comm.rank
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None, iter_per_epoch=2)
    trigger = MultiNodeEarlyStoppingTrigger(comm, monitor='main/accuracy', patience=3,
                                            check_trigger=(1, 'epoch'))
    stops = []
    for acc in accuracies:
        trainer.updater.update()
        trainer.observation = {'main/accuracy': chainer.Variable(
            numpy.array(acc * scale, numpy.float32))}
        stops.append(trigger(trainer))
    assert stops == [False] * 11 + [True, False, True]
    assert trigger.best == pytest.approx(0.7 * (comm.size + 1) / 2, rel=1e-6)
    with pytest.raises(ValueError, match='mode'):
        MultiNodeEarlyStoppingTrigger(comm, mode='best')


class Sum(chainer.Chain):
    def forward(self, a, b):
        return a + b


def test_generic_multi_node_evaluator(comm):
    # process r holds r, r + size, ...: 9 + r examples, so the batch counts differ
    n = 9 + comm.rank
    values = numpy.arange(n, dtype=numpy.float32) * comm.size + comm.rank
    dataset = chainer.datasets.TupleDataset(values, values)
    iterator = chainer.iterators.SerialIterator(dataset, 4, repeat=False, shuffle=False)
    evaluator = GenericMultiNodeEvaluator(comm, iterator, Sum())
    result = evaluator()
    again = evaluator()  # the iterator is reset for every evaluation
    counts = comm.allgather(numpy.array(n))
    if comm.rank != 0:
        assert result is None and again is None
        return
    assert len(again) == len(result)
    n_batches = [-(-int(c) // 4) for c in counts]
    assert len(result) == sum(n_batches)
    # interleaved by batch: batch 0 of every process, then batch 1, ...
    first = result[:comm.size]
    for r, batch in enumerate(first):
        numpy.testing.assert_allclose(batch, 2 * (numpy.arange(4) * comm.size + r))


def test_generic_multi_node_evaluator_custom_aggregate(comm):
    class Count(GenericMultiNodeEvaluator):
        def calc_local(self, a, b):
            return len(a)

        def aggregate(self, results):
            return sum(results)

    dataset = chainer.datasets.TupleDataset(numpy.zeros(5), numpy.zeros(5))
    iterator = chainer.iterators.SerialIterator(dataset, 2, repeat=False)
    total = Count(comm, iterator, None, root=comm.size - 1)()
    assert total == (5 * comm.size if comm.rank == comm.size - 1 else None)
    with pytest.raises(TypeError, match='unexpected keyword'):
        GenericMultiNodeEvaluator(comm, iterator, None, colour='red')


def test_extensions_in_a_trainer_with_default_triggers(comm, tmp_path):
    model = WithStats()
    model.mean[...] = comm.rank
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=(2, 'epoch'))
    trainer.extend(AllreducePersistent(model, comm))
    trainer.run()
    numpy.testing.assert_allclose(model.mean, (comm.size - 1) / 2)
    assert isinstance(trainer, training.Trainer)
