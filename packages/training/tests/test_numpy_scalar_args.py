"""Triggers, value shifts and trainers given NumPy numbers (as v7 programs pass them).

Each schedule is driven once with Python numbers and once with NumPy twins of the
same values; the values it fires at or sets must be the same, and stay Python
numbers (a ``numpy.float32`` learning rate would change the update's arithmetic
under NumPy 2).
"""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from _training_helpers import FakeTrainer, FakeUpdater, make_trainer, params

from chainer import optimizers
from chainer.training import extensions as E
from chainer.training import triggers as T
from chainer.training import util

INT_TWINS = [numpy.int32, numpy.int64, numpy.uint16, numpy.array]
FLOAT_TWINS = [numpy.float16, numpy.float32, numpy.float64, numpy.array]
INT_IDS = ['int32', 'int64', 'uint16', '0-d']
FLOAT_IDS = ['float16', 'float32', 'float64', '0-d']


def _fires(trigger: Any, n: int = 20, per_epoch: int = 4) -> list[int]:
    trainer = FakeTrainer(FakeUpdater(per_epoch))
    out = []
    for _ in range(n):
        trainer.updater.update()
        if trigger(trainer):
            out.append(trainer.updater.iteration)
    return out


@pytest.mark.parametrize('twin', INT_TWINS, ids=INT_IDS)
@pytest.mark.parametrize('unit', ['epoch', 'iteration'])
def test_interval_triggers(twin, unit):
    expected = _fires(T.IntervalTrigger(3, unit))
    assert _fires(T.IntervalTrigger(twin(3), unit)) == expected
    assert _fires(util.get_trigger((twin(3), unit))) == expected
    assert type(util.get_trigger((twin(3), unit)).period) is int


@pytest.mark.parametrize('twin', INT_TWINS, ids=INT_IDS)
@pytest.mark.parametrize('unit', ['epoch', 'iteration'])
def test_manual_schedule_trigger(twin, unit):
    expected = _fires(T.ManualScheduleTrigger([1, 3, 4], unit))
    assert _fires(T.ManualScheduleTrigger([twin(1), twin(3), 4], unit)) == expected
    single = T.ManualScheduleTrigger(twin(3), unit)
    assert _fires(single) == _fires(T.ManualScheduleTrigger(3, unit))
    assert single.finished


def _run_shift(make: Any, steps: int = 6, init_lr: float = 0.1) -> list[float]:
    optimizer = optimizers.MomentumSGD(lr=init_lr)
    trainer = FakeTrainer(FakeUpdater())
    trainer.updater.get_optimizer = lambda name: optimizer
    shift = make()
    shift.initialize(trainer)
    values = [optimizer.lr]
    for _ in range(steps):
        shift(trainer)
        values.append(optimizer.lr)
    return values


SHIFTS = [
    lambda n, r: E.ExponentialShift('lr', r(0.5)),
    lambda n, r: E.ExponentialShift('lr', r(0.5), init=r(0.25), target=r(0.015625)),
    lambda n, r: E.LinearShift('lr', (r(0.25), r(0.0625)), (n(1), n(4))),
    lambda n, r: E.StepShift('lr', r(0.5), n(2), init=r(0.25)),
    lambda n, r: E.MultistepShift('lr', r(0.5), [n(1), n(3)], r(0.25)),
    lambda n, r: E.PolynomialShift('lr', r(0.75), n(8), init=r(0.25)),
    lambda n, r: E.WarmupShift('lr', r(0.0625), n(4), r(0.25)),
    lambda n, r: E.InverseShift('lr', r(0.125), r(0.75), init=r(0.25)),
]


@pytest.mark.parametrize('int_twin', INT_TWINS, ids=INT_IDS)
@pytest.mark.parametrize('float_twin', FLOAT_TWINS, ids=FLOAT_IDS)
@pytest.mark.parametrize('make', SHIFTS, ids=[
    'exponential', 'exponential-target', 'linear', 'step', 'multistep', 'polynomial',
    'warmup', 'inverse'])
def test_value_shifts(make, float_twin, int_twin):
    expected = _run_shift(lambda: make(lambda v: v, lambda v: v))
    got = _run_shift(lambda: make(int_twin, float_twin))
    assert got == expected
    assert all(type(v) is float for v in got)


@pytest.mark.parametrize('twin', INT_TWINS, ids=INT_IDS)
def test_trainer_with_numpy_stop_trigger_and_intervals(tmp_path, twin):
    trainer, model, _ = make_trainer(tmp_path / 'a', stop=(twin(2), 'epoch'),
                                     batch_size=twin(10))
    trainer.extend(E.LogReport(trigger=(twin(1), 'epoch')))
    trainer.extend(E.snapshot(n_retains=twin(1)), trigger=(twin(4), 'iteration'))
    trainer.run()
    reference, ref_model, _ = make_trainer(tmp_path / 'b', stop=(2, 'epoch'))
    reference.run()
    assert trainer.updater.iteration == reference.updater.iteration == 8
    got, expected = params(model), params(ref_model)
    for key in expected:
        numpy.testing.assert_array_equal(got[key], expected[key])
    assert sorted(p.name for p in (tmp_path / 'a').glob('snapshot_iter_*')) == \
        ['snapshot_iter_8']


@pytest.mark.parametrize('bad', [(0, 'epoch'), (-1, 'iteration'), (numpy.int64(0), 'epoch')])
def test_bad_periods_stay_refused(bad):
    with pytest.raises(ValueError):
        util.get_trigger(bad)
