"""MultiNodeEarlyStoppingTrigger is an EarlyStoppingTrigger with an agreed value."""

import warnings

import numpy
import pytest

import chainer
import chainermn
from chainer import testing
from chainer.serializers import DictionarySerializer, NpzDeserializer
from chainer.training.triggers import EarlyStoppingTrigger
from chainermn.extensions import MultiNodeEarlyStoppingTrigger


@pytest.fixture
def comm():
    return chainermn.create_communicator('naive')


def _run(trigger, values):
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None, iter_per_epoch=1)
    stops = []
    for value in values:
        trainer.updater.update()
        trainer.observation = {} if value is None else {
            'main/loss': chainer.Variable(numpy.array(value, numpy.float32))}
        stops.append(trigger(trainer))
    return stops


def test_is_an_early_stopping_trigger_with_its_checks(comm):
    trigger = MultiNodeEarlyStoppingTrigger(comm, patience=2)
    assert isinstance(trigger, EarlyStoppingTrigger)
    assert (trigger.comm, trigger.patience, trigger.mode, trigger.best) == (
        comm, 2, 'min', numpy.inf)
    with pytest.raises(ValueError, match='patience'):
        MultiNodeEarlyStoppingTrigger(comm, patience=0)


def test_same_stops_as_the_single_process_trigger_on_equal_values(comm):
    values = [3.0, 2.0, 2.5, 2.5, 1.0, 1.5, 1.5, 1.5]
    single = _run(EarlyStoppingTrigger(patience=3), values)
    multi = _run(MultiNodeEarlyStoppingTrigger(comm, patience=3), values)
    assert multi == single == [False] * 7 + [True]


def test_no_report_anywhere_skips_the_check_without_a_warning(comm):
    trigger = MultiNodeEarlyStoppingTrigger(comm, patience=1)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert _run(trigger, [None, None]) == [False, False]
    assert (trigger.count, trigger.best) == (0, numpy.inf)


def test_verbose_prints_on_rank_zero_only(comm, capsys):
    trigger = MultiNodeEarlyStoppingTrigger(comm, patience=1, verbose=True)
    assert _run(trigger, [1.0, 2.0]) == [False, True]
    printed = capsys.readouterr().out
    assert ('early stopping' in printed) == (comm.rank == 0)


def test_serialize_round_trip(comm):
    trigger = MultiNodeEarlyStoppingTrigger(comm, patience=3)
    _run(trigger, [1.0, 2.0])
    target = {}
    trigger.serialize(DictionarySerializer(target))
    restored = MultiNodeEarlyStoppingTrigger(comm, patience=3)
    restored.serialize(NpzDeserializer(target))
    assert (restored.best, restored.count) == (1.0, 1)
