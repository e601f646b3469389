"""Clear errors for trigger arguments that cannot work (found by the type check)."""

import numpy
import pytest

from chainer import training
from chainer.training import triggers


def test_manual_schedule_points_of_the_wrong_type():
    with pytest.raises(TypeError, match='points must be a number or a sequence'):
        triggers.ManualScheduleTrigger(None, 'epoch')  # used to fail on iter(None)
    with pytest.raises(ValueError, match='at least one point'):
        triggers.ManualScheduleTrigger([], 'epoch')
    t = triggers.ManualScheduleTrigger(numpy.array([2, 4]), 'iteration')
    assert t.points == [2, 4] and all(type(p) is int for p in t.points)
    assert triggers.ManualScheduleTrigger(numpy.int64(3), 'epoch').points == [3]


def test_early_stopping_length_of_a_plain_max_trigger():
    t = triggers.EarlyStoppingTrigger(monitor='v', max_trigger=lambda trainer: False)
    with pytest.raises(TypeError, match='get_training_length'):
        t.get_training_length()  # an AttributeError before


def test_make_extension_sets_the_attributes_on_the_function():
    @training.make_extension(trigger=(2, 'iteration'), priority=training.PRIORITY_WRITER)
    def ext(trainer):
        pass

    assert ext.trigger == (2, 'iteration')
    assert ext.priority == training.PRIORITY_WRITER
    assert ext.default_name == 'ext'
    assert ext.finalize is None and ext.initialize is None and ext.on_error is None
