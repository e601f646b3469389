import pytest
from _training_helpers import FakeTrainer, FakeUpdater

from chainer.training import IntervalTrigger, get_trigger
from chainer.training.triggers import IntervalTrigger as IntervalTrigger2


def fire_points(trigger, updater, n):
    trainer = FakeTrainer(updater)
    points = []
    assert not trigger(trainer)  # checked before the first iteration, as a stop trigger is
    for _ in range(n):
        updater.iteration += 1
        if trigger(trainer):
            points.append(updater.iteration)
    return points


def test_same_class_exported():
    assert IntervalTrigger is IntervalTrigger2


def test_iteration_unit():
    assert fire_points(IntervalTrigger(3, 'iteration'), FakeUpdater(), 10) == [3, 6, 9]
    assert fire_points(IntervalTrigger(1, 'iteration'), FakeUpdater(), 3) == [1, 2, 3]


def test_epoch_unit():
    assert fire_points(IntervalTrigger(1, 'epoch'), FakeUpdater(per_epoch=4), 12) == [4, 8, 12]
    assert fire_points(IntervalTrigger(2, 'epoch'), FakeUpdater(per_epoch=3), 13) == [6, 12]


def test_fractional_epoch_fires_when_crossing():
    # 3 iterations per epoch, period 0.5: boundaries at epoch 0.5, 1.0, 1.5 ...
    # epoch_detail goes 1/3, 2/3, 1, 4/3, 5/3, 2: crossings at iterations 2, 3, 5, 6.
    trigger = IntervalTrigger(0.5, 'epoch')
    assert fire_points(trigger, FakeUpdater(per_epoch=3), 6) == [2, 3, 5, 6]


def test_get_training_length():
    assert IntervalTrigger(5, 'epoch').get_training_length() == (5, 'epoch')


def test_bad_arguments():
    with pytest.raises(ValueError, match='unit'):
        IntervalTrigger(1, 'epochs')
    with pytest.raises(ValueError, match='positive'):
        IntervalTrigger(0, 'iteration')


def test_serialize_round_trip():
    from _training_helpers import FakeUpdater as U

    class Store(dict):
        def __call__(self, key, value):
            if key in self:
                return type(value)(self[key])
            self[key] = value
            return value

    updater = U(per_epoch=4)
    trigger = IntervalTrigger(3, 'iteration')
    fire_points(trigger, updater, 4)
    store = Store()
    trigger.serialize(store)
    assert store == {'previous_iteration': 4, 'previous_epoch_detail': 1.0}
    restored = IntervalTrigger(3, 'iteration')
    restored.serialize(store)
    updater.iteration = 5
    assert not restored(FakeTrainer(updater))
    updater.iteration = 6
    assert restored(FakeTrainer(updater))


def test_get_trigger():
    def custom(trainer):
        return True

    assert get_trigger(custom) is custom
    never = get_trigger(None)
    assert never(FakeTrainer(FakeUpdater())) is False
    t = get_trigger((2, 'iteration'))
    assert isinstance(t, IntervalTrigger)
    assert (t.period, t.unit) == (2, 'iteration')
    with pytest.raises(TypeError):
        get_trigger(5)
    with pytest.raises(ValueError):
        get_trigger((1, 'hour'))
