"""Optimizer hooks: WeightDecay, Lasso, GradientClipping, GradientHardClipping,
GradientNoise and GradientLARS; optimizer-wide and per update rule, pre and post."""

import warnings

import numpy
import pytest
from _optim_models import TwoParams

import chainer
from chainer import optimizer, optimizer_hooks, optimizers


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


def test_gradient_noise_adds_the_noise_of_its_function():
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((xp, shape, numpy.dtype(dtype), hook, rule))
        return xp.full(shape, 0.25, dtype)

    link, opt = _setup(optimizer_hooks.GradientNoise(0.3, noise_func=noise))
    w0 = link.w.array.copy()
    link.w.grad = numpy.ones((3, 2), 'f')
    link.b.grad = numpy.zeros(2, 'f')
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - 1.25)
    hook = opt._pre_update_hooks['GradientNoise']
    assert (numpy, (3, 2), numpy.dtype('f'), hook, link.w.update_rule) in calls
    assert len(calls) == 2  # the lazy parameter has no data


def test_gradient_noise_default_is_annealed_gaussian():
    from chainer.optimizer_hooks.gradient_noise import exponential_decay_noise

    hook = optimizer_hooks.GradientNoise(0.5)
    rule = optimizers.SGD().create_update_rule()
    rule.t = 3
    numpy.random.seed(0)
    noise = exponential_decay_noise(numpy, (200000,), numpy.float32, hook, rule)
    assert noise.dtype == numpy.float32
    assert noise.std() == pytest.approx(numpy.sqrt(0.5 / 4 ** 0.55), rel=1e-2)
    assert abs(noise.mean()) < 1e-2


def _lars_reference(p, g, threshold, weight_decay, eps):
    p_norm, g_norm = numpy.linalg.norm(p), numpy.linalg.norm(g)
    rate = p_norm / (eps + g_norm + weight_decay * p_norm)
    rate = rate if rate > threshold else 1.0
    return p - rate * (g + weight_decay * p)


@pytest.mark.parametrize('scale', [1.0, 1e-5])  # the small weights get rate 1
def test_gradient_lars(scale):
    link, opt = _setup(optimizer_hooks.GradientLARS(threshold=1e-2, weight_decay=0.2))
    link.w.array[...] *= scale
    rng = numpy.random.RandomState(1)
    gw, gb = rng.randn(3, 2).astype('f'), rng.randn(2).astype('f')
    expected_w = _lars_reference(link.w.array.copy(), gw, 1e-2, 0.2, 1e-9)
    expected_b = _lars_reference(link.b.array.copy(), gb, 1e-2, 0.2, 1e-9)
    link.w.grad, link.b.grad = gw, gb
    opt.update()
    numpy.testing.assert_allclose(link.w.array, expected_w, rtol=1e-5, atol=1e-7)
    numpy.testing.assert_allclose(link.b.array, expected_b, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize('hook', [
    optimizer_hooks.WeightDecay(0.1), optimizer_hooks.Lasso(0.1),
    optimizer_hooks.GradientHardClipping(-0.2, 0.2),
    optimizer_hooks.GradientLARS(weight_decay=0.1)])
def test_hooks_see_the_unscaled_gradient_under_loss_scaling(hook):
    results = []
    for loss_scale in (None, 32.0):
        link = TwoParams()
        opt = optimizers.SGD(lr=0.5).setup(link)
        opt.add_hook(hook)
        loss = chainer.functions.sum(link.w ** 3) + chainer.functions.sum(link.b * 2)
        link.cleargrads()
        loss.backward(loss_scale=loss_scale)
        opt.update()
        results.append((link.w.array.copy(), link.b.array.copy()))
    for a, b in zip(*results, strict=True):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_post_hook_runs_after_the_update():
    decay = optimizer_hooks.WeightDecay(0.5)
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(decay, timing='post')
    assert 'WeightDecay' in opt._post_update_hooks
    w0 = link.w.array.copy()
    link.w.grad = numpy.ones((3, 2), 'f')
    link.b.grad = numpy.zeros(2, 'f')
    opt.update()
    numpy.testing.assert_allclose(link.w.array, w0 - 1.0)  # the decay came too late
    numpy.testing.assert_allclose(link.w.grad, 1.0 + 0.5 * (w0 - 1.0), rtol=1e-6)


def test_hook_on_one_update_rule_only():
    link = TwoParams()
    opt = optimizers.Adam(alpha=0.1).setup(link)
    link.w.update_rule.add_hook(optimizer_hooks.GradientHardClipping(0.0, 0.0))
    w0, b0 = link.w.array.copy(), link.b.array.copy()
    link.w.grad = numpy.ones((3, 2), 'f')
    link.b.grad = numpy.ones(2, 'f')
    opt.update()
    numpy.testing.assert_array_equal(link.w.array, w0)  # gradient clipped to 0
    numpy.testing.assert_allclose(link.b.array, b0 - 0.1, rtol=1e-4)


@pytest.mark.parametrize('name,args', [
    ('GradientClipping', (1.0,)), ('GradientHardClipping', (-1.0, 1.0)),
    ('GradientNoise', (0.1,)), ('Lasso', (0.1,)), ('WeightDecay', (0.1,))])
def test_deprecated_aliases_in_chainer_optimizer_warn(name, args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        hook = getattr(optimizer, name)(*args)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert isinstance(hook, getattr(optimizer_hooks, name))
    with pytest.raises(AttributeError):
        optimizer.NoSuchHook
