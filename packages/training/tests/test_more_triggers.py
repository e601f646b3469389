import math
import os

import pytest
from _training_helpers import FakeTrainer, FakeUpdater

from chainer import report, serializers, training
from chainer.training import triggers


class Store(dict):
    """Serializer and deserializer in one: saves unknown keys, loads known ones."""

    def __getitem__(self, key):
        return self.setdefault(key, Store())

    def __call__(self, key, value):
        if key in self:
            return type(value)(dict.__getitem__(self, key))
        dict.__setitem__(self, key, value)
        return value


def drive(trigger, values, per_epoch=2):
    """Feed one observation per iteration; return the iterations where it fired."""
    updater = FakeUpdater(per_epoch=per_epoch)
    trainer = FakeTrainer(updater)
    fired = []
    for value in values:
        updater.iteration += 1
        trainer.observation = {} if value is None else {'v': value}
        if trigger(trainer):
            fired.append(updater.iteration)
    return fired


def test_once_trigger():
    t = triggers.OnceTrigger()
    assert not t.finished
    assert drive(t, [1, 2, 3]) == [1]
    assert t.finished
    store = Store()
    t.serialize(store)
    resumed = triggers.OnceTrigger(call_on_resume=True)
    resumed.serialize(store)
    assert drive(resumed, [1, 2]) == [1]
    plain = triggers.OnceTrigger()
    plain.serialize(store)
    assert drive(plain, [1, 2]) == []


def test_manual_schedule_trigger():
    t = triggers.ManualScheduleTrigger([2, 5], 'iteration')
    assert drive(t, [0] * 7) == [2, 5]
    assert t.finished
    t = triggers.ManualScheduleTrigger(1.5, 'epoch')  # 2 iterations per epoch
    assert drive(t, [0] * 6) == [3]
    assert t.get_training_length() == (1.5, 'epoch')
    with pytest.raises(ValueError):
        triggers.ManualScheduleTrigger([], 'epoch')
    with pytest.raises(ValueError):
        triggers.ManualScheduleTrigger([1], 'second')


def test_max_and_min_value_triggers():
    # Epochs of 2 iterations; epoch means: 1.5, 3.5, 2.0, 4.0
    values = [1, 2, 3, 4, 2, 2, 5, 3]
    assert drive(triggers.MaxValueTrigger('v'), values) == [2, 4, 8]
    assert drive(triggers.MinValueTrigger('v'), values) == [2]
    t = triggers.MaxValueTrigger('v', trigger=(1, 'iteration'))
    assert drive(t, [1, None, 3, 2]) == [1, 3]
    assert t.best_value == 3.0


def test_best_value_trigger_serialize():
    t = triggers.MinValueTrigger('v', trigger=(1, 'iteration'))
    drive(t, [3.0, 2.0])
    store = Store()
    t.serialize(store)
    restored = triggers.MinValueTrigger('v', trigger=(1, 'iteration'))
    restored.serialize(store)
    assert restored.best_value == 2.0
    fresh = triggers.MinValueTrigger('v')
    store2 = Store()
    fresh.serialize(store2)
    again = triggers.MinValueTrigger('v')
    again.serialize(store2)
    assert again.best_value is None


def test_time_trigger():
    class Clock:
        elapsed_time = 0.0

    t = triggers.TimeTrigger(10)
    clock = Clock()
    fired = []
    for now in [1, 9.9, 10, 12, 19, 21, 45]:
        clock.elapsed_time = now
        fired.append(t(clock))
    assert fired == [False, False, True, False, False, True, True]
    with pytest.raises(ValueError):
        triggers.TimeTrigger(0)


def test_early_stopping_trigger():
    # check every iteration; loss improves twice then stalls for 2 checks
    t = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), monitor='v',
                                      patience=2, max_trigger=(100, 'iteration'))
    assert t.mode == 'min'
    assert drive(t, [3, 2, 2.5, 2.1, 1.0]) == [4]
    acc = triggers.EarlyStoppingTrigger(monitor='validation/main/accuracy')
    assert acc.mode == 'max' and acc.patience == 3
    capped = triggers.EarlyStoppingTrigger(monitor='v', max_trigger=(3, 'iteration'))
    assert drive(capped, [1, 1, 1, 1]) == [3]
    assert capped.get_training_length() == (3, 'iteration')
    with pytest.raises(ValueError):
        triggers.EarlyStoppingTrigger(mode='best')
    with pytest.raises(TypeError):
        triggers.EarlyStoppingTrigger(bad=1)
    assert triggers.EarlyStoppingTrigger(patients=5).patience == 5


def test_early_stopping_as_stop_trigger(tmp_path):
    class Plateau(FakeUpdater):
        def update(self):
            self.iteration += 1
            report({'main/loss': max(5.0 - self.iteration, 2.0)})

    stop = triggers.EarlyStoppingTrigger(check_trigger=(1, 'iteration'), patience=3,
                                         max_trigger=(50, 'iteration'), verbose=True)
    trainer = training.Trainer(Plateau(per_epoch=100), stop, out=str(tmp_path))
    trainer.run()
    # Loss 4, 3, 2 improves; 2, 2, 2 at iterations 4, 5, 6 do not.
    assert trainer.updater.iteration == 6
    assert stop.best == 2.0 and stop.count == 3


def test_triggers_survive_a_snapshot(tmp_path):
    trainer = training.Trainer(FakeUpdater(), (4, 'iteration'), out=str(tmp_path))
    best = triggers.MaxValueTrigger('value', trigger=(2, 'iteration'))
    calls = []
    trainer.extend(lambda tr: calls.append(tr.updater.iteration), name='spy', trigger=best)
    trainer.run()
    path = os.path.join(tmp_path, 't.npz')
    serializers.save_npz(path, trainer)

    best2 = triggers.MaxValueTrigger('value', trigger=(2, 'iteration'))
    trainer2 = training.Trainer(FakeUpdater(), (4, 'iteration'), out=str(tmp_path))
    trainer2.extend(lambda tr: None, name='spy', trigger=best2)
    serializers.load_npz(path, trainer2)
    assert calls == [2, 4]
    assert best2.best_value == 3.5
    assert math.isclose(trainer2._snapshot_elapsed_time, trainer.elapsed_time)
    assert trainer2.updater.iteration == 4
