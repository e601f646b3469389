"""Behaviours of Chainer v7 the conformance suite found missing: negative schedules,
snapshots of older versions for triggers, removed and aliased arguments."""

import warnings

import numpy
import pytest
from _training_helpers import FakeTrainer, FakeUpdater

from chainer import serializers, training
from chainer.training import extensions, triggers


class Opt:
    lr = 0.0


def values_of(ext, n, opt):
    trainer = training.Trainer(FakeUpdater(), (n, 'iteration'), out='unused')
    seen = []
    trainer.extend(ext)
    trainer.extend(lambda tr: seen.append(opt.lr), name='spy',
                   priority=training.PRIORITY_READER - 1)
    trainer.run()
    return seen


@pytest.fixture(autouse=True)
def _chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize('make, expected', [
    # shrinking magnitudes stop at the target, whatever the sign
    (lambda o: extensions.ExponentialShift('lr', 0.5, -2.0, -1.2, o), [-1.2, -1.2]),
    (lambda o: extensions.ExponentialShift('lr', 0.5, 2.0, 1.2, o), [1.2, 1.2]),
    # growing magnitudes too
    (lambda o: extensions.ExponentialShift('lr', 2.0, -2.0, -3.0, o), [-3.0, -3.0]),
    (lambda o: extensions.StepShift('lr', 0.5, 1, -2.0, -1.2, o), [-1.2, -1.2]),
    (lambda o: extensions.StepShift('lr', 2.0, 1, -2.0, -3.0, o), [-3.0, -3.0]),
    (lambda o: extensions.InverseShift('lr', 1.0, 1.0, -3.0, -1.8, o), [-1.8, -1.8]),
    (lambda o: extensions.InverseShift('lr', 1.0, -2.0, -3.0, -4.0, o), [-4.0, -4.0]),
    # a negative rate makes the polynomial grow: it stops at the target from below
    (lambda o: extensions.PolynomialShift('lr', -0.5, 10, 2.0, 2.2, o),
     [2.0 * 0.9 ** -0.5, 2.2]),
])
def test_shift_targets_follow_the_direction_of_change(make, expected):
    opt = Opt()
    numpy.testing.assert_allclose(values_of(make(opt), 2, opt), expected)


def test_polynomial_shift_without_target_starts_at_init():
    opt = Opt()
    values = values_of(extensions.PolynomialShift('lr', 0.5, 4, 1.0, None, opt), 4, opt)
    numpy.testing.assert_allclose(values, [0.75 ** 0.5, 0.5 ** 0.5, 0.25 ** 0.5, 0.0])


def _old_snapshot(tmp_path):
    path = tmp_path / 'old.npz'
    numpy.savez(path, dummy=0)  # a file of a version that saved nothing for triggers
    return str(path)


def _drive(trigger, updater, n):
    trainer = FakeTrainer(updater)
    out = []
    for _ in range(n):
        updater.iteration += 1
        out.append((trigger(trainer), trigger.finished))
    return out


def test_once_trigger_loads_a_snapshot_without_its_flag(tmp_path):
    path = _old_snapshot(tmp_path)
    for call_on_resume in (False, True):
        trigger = triggers.OnceTrigger(call_on_resume)
        with pytest.warns(UserWarning, match='_flag_first'):
            serializers.load_npz(path, trigger)
        updater = FakeUpdater()
        updater.iteration = 4
        assert _drive(trigger, updater, 2) == [(call_on_resume, True), (False, True)]


def test_manual_schedule_trigger_loads_a_snapshot_without_its_state(tmp_path):
    path = _old_snapshot(tmp_path)
    trigger = triggers.ManualScheduleTrigger([2, 4], 'iteration')
    with pytest.warns(UserWarning, match='finished'):
        serializers.load_npz(path, trigger)
    updater = FakeUpdater(per_epoch=2)
    updater.iteration = 3
    # fires at 4 (previous iteration guessed as 3) and is finished from then on
    assert _drive(trigger, updater, 3) == [(True, True), (False, True), (False, True)]
    # past every point without firing: finished is still found out at the next call
    trigger = triggers.ManualScheduleTrigger(2, 'iteration')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        serializers.load_npz(path, trigger)
    updater.iteration = 5
    assert _drive(trigger, updater, 1) == [(False, True)]


def test_make_extension_refuses_the_removed_invoke_before_training():
    with pytest.raises(ValueError, match='call_before_training'):
        training.make_extension(invoke_before_training=True)
    with pytest.raises(TypeError):
        training.make_extension(foo=1)


def test_early_stopping_patients_alias():
    assert triggers.EarlyStoppingTrigger(patients=7).patience == 7
    assert triggers.EarlyStoppingTrigger((1, 'epoch'), 'main/loss', 5).patience == 5
    with pytest.raises(TypeError, match='not both'):
        triggers.EarlyStoppingTrigger(patience=2, patients=3)
    with pytest.raises(TypeError, match='not both'):
        triggers.EarlyStoppingTrigger((1, 'epoch'), 'main/loss', 2, patients=3)
