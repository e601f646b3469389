"""Optimizer hooks: WeightDecay, Lasso, GradientClipping, GradientHardClipping."""

import numpy
import pytest
from _optim_models import TwoParams

from chainer import optimizer_hooks, optimizers


def _setup(hook, lr=1.0):
    link = TwoParams()
    opt = optimizers.SGD(lr=lr).setup(link)
    opt.add_hook(hook)
    return link, opt


def test_weight_decay():
    link, opt = _setup(optimizer_hooks.WeightDecay(0.1))
    w0, b0 = link.w.array.copy(), link.b.array.copy()
    g = numpy.random.RandomState(0).randn(3, 2).astype('f')
    link.w.grad = g.copy()
    link.b.grad = numpy.zeros(2, 'f')
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - (g + 0.1 * w0), rtol=1e-6)
    numpy.testing.assert_allclose(link.b.array, b0 - 0.1 * b0, rtol=1e-6)
    assert 'WeightDecay' in opt._pre_update_hooks


def test_lasso():
    link, opt = _setup(optimizer_hooks.Lasso(0.5))
    w0 = link.w.array.copy()
    link.w.grad = numpy.zeros((3, 2), 'f')
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - 0.5 * numpy.sign(w0))


def test_gradient_clipping_scales_global_norm():
    link, opt = _setup(optimizer_hooks.GradientClipping(1.0))
    w0, b0 = link.w.array.copy(), link.b.array.copy()
    gw, gb = numpy.full((3, 2), 2.0, 'f'), numpy.full(2, 2.0, 'f')
    norm = numpy.sqrt((gw ** 2).sum() + (gb ** 2).sum())
    link.w.grad, link.b.grad = gw.copy(), gb.copy()
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - gw / norm, rtol=1e-6)
    numpy.testing.assert_allclose(link.b.array, b0 - gb / norm, rtol=1e-6)


def test_gradient_clipping_leaves_small_gradients():
    link, opt = _setup(optimizer_hooks.GradientClipping(100.0))
    w0 = link.w.array.copy()
    link.w.grad = numpy.ones((3, 2), 'f')
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - 1.0)
    with pytest.raises(ValueError):
        optimizer_hooks.GradientClipping(0)


def test_gradient_hard_clipping():
    link, opt = _setup(optimizer_hooks.GradientHardClipping(-0.5, 0.25))
    w0 = link.w.array.copy()
    g = numpy.array([[-2, -0.1], [0.1, 3], [0, 0.3]], 'f')
    link.w.grad = g.copy()
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - numpy.clip(g, -0.5, 0.25))
    with pytest.raises(ValueError):
        optimizer_hooks.GradientHardClipping(1, 0)


def test_gradient_clipping_float16_norm_does_not_overflow():
    link = TwoParams(dtype=numpy.float16)
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(optimizer_hooks.GradientClipping(1.0))
    w0 = link.w.array.astype('f')
    link.w.grad = numpy.full((3, 2), 300.0, numpy.float16)  # 300**2 * 6 overflows float16
    link.b.grad = numpy.zeros(2, numpy.float16)
    opt.update()
    numpy.testing.assert_allclose(link.w.array.astype('f'), w0 - 1 / numpy.sqrt(6), rtol=1e-2,
                                  atol=1e-2)
