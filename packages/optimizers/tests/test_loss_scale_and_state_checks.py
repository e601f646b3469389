"""Checks that mypy's narrowing made explicit: turning loss scaling off, state reads."""

import numpy
import pytest
from _optim_models import TwoParams

from chainer import Parameter, initializers, optimizer, optimizer_hooks, optimizers


def test_set_loss_scale_none_ends_dynamic_scaling():
    # Before, the next update divided None by 2 (TypeError) after a dynamic scaling.
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.loss_scaling()
    opt.set_loss_scale(None)
    before = link.w.array.copy()
    link.w.grad = numpy.ones((3, 2), 'f')
    opt.update()
    numpy.testing.assert_array_equal(link.w.array, before - 1.0)
    assert opt._loss_scale is None
    # an overflowing gradient is applied, not skipped: scaling is off
    link.w.grad = numpy.full((3, 2), numpy.inf, 'f')
    opt.update()
    assert numpy.isinf(link.w.array).all()


def test_set_loss_scale_number_keeps_dynamic_scaling():
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.loss_scaling()
    opt.set_loss_scale(4.0)
    link.w.grad = numpy.ones((3, 2), 'f')
    opt.update()
    assert opt._loss_scale == 8.0  # doubled from the scale set, as dynamic scaling does


def test_state_read_before_allocation_is_a_clear_error():
    rule = optimizers.MomentumSGD().create_update_rule()
    assert rule.state is None
    with pytest.raises(RuntimeError, match='not allocated yet'):
        _ = rule._live_state


def test_gradient_clipping_before_setup_names_the_missing_setup():
    opt = optimizers.SGD()
    with pytest.raises(RuntimeError, match='call setup'):
        optimizer_hooks.GradientClipping(1.0)(opt)


def test_fp32_update_of_uninitialized_parameter_uses_a_float32_stand_in():
    seen = []

    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            seen.append(param.dtype)
            with pytest.raises(RuntimeError, match='stand-in'):
                param.initializer(numpy.empty(1, 'f'))

    param = Parameter(initializers.Constant(0, dtype=numpy.float16))
    assert param.array is None and param.dtype == numpy.float16
    rule = Rule()
    rule.use_fp32_update()
    rule.update(param)
    assert seen == [numpy.float32]
