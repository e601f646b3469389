"""SGD, MomentumSGD and Adam against hand-written NumPy references."""

import math

import numpy
import pytest
from _optim_models import TwoParams, grads_for, set_grads

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers

STEPS = 5


def _run(opt, link, steps=STEPS):
    opt.setup(link)
    for step in range(steps):
        set_grads(link, grads_for(link, step))
        opt.update()


def _start(link):
    return {name: p.array.copy() for name, p in link.namedparams(include_uninit=False)}


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_sgd_matches_reference(dtype):
    link = TwoParams(dtype=dtype)
    ref = _start(link)
    for step in range(STEPS):
        for name, g in grads_for(link, step).items():
            ref[name] = ref[name] - 0.1 * g
    _run(optimizers.SGD(lr=0.1), link)
    for name, p in link.namedparams(include_uninit=False):
        numpy.testing.assert_allclose(p.array, ref[name], rtol=1e-6)
        assert p.dtype == dtype


def test_momentum_sgd_matches_reference():
    link = TwoParams()
    ref = _start(link)
    vel = {k: numpy.zeros_like(v) for k, v in ref.items()}
    for step in range(STEPS):
        for name, g in grads_for(link, step).items():
            vel[name] = 0.8 * vel[name] - 0.05 * g
            ref[name] = ref[name] + vel[name]
    opt = optimizers.MomentumSGD(lr=0.05, momentum=0.8)
    _run(opt, link)
    for name, p in link.namedparams(include_uninit=False):
        numpy.testing.assert_allclose(p.array, ref[name], rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(p.update_rule.state['v'], vel[name], rtol=1e-5,
                                      atol=1e-6)


def _adam_reference(link, alpha, beta1, beta2, eps, weight_decay_rate=0.0, amsgrad=False,
                    eta=1.0):
    ref = _start(link)
    m = {k: numpy.zeros_like(v, dtype='d') for k, v in ref.items()}
    v = {k: numpy.zeros_like(x, dtype='d') for k, x in ref.items()}
    vhat = {k: numpy.zeros_like(x, dtype='d') for k, x in ref.items()}
    ref = {k: x.astype('d') for k, x in ref.items()}
    for step in range(STEPS):
        t = step + 1
        alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        for name, g in grads_for(link, step).items():
            m[name] = beta1 * m[name] + (1 - beta1) * g
            v[name] = beta2 * v[name] + (1 - beta2) * g * g
            vhat[name] = numpy.maximum(vhat[name], v[name]) if amsgrad else v[name]
            ref[name] = ref[name] - eta * (alpha_t * m[name] / (numpy.sqrt(vhat[name]) + eps)
                                           + weight_decay_rate * ref[name])
    return ref, m, v


@pytest.mark.parametrize('kwargs', [
    {},
    {'alpha': 0.01, 'beta1': 0.5, 'beta2': 0.9, 'eps': 1e-4},
    {'alpha': 0.01, 'weight_decay_rate': 0.1, 'eta': 0.5},
    {'alpha': 0.01, 'amsgrad': True},
])
def test_adam_matches_reference(kwargs):
    link = TwoParams()
    full = {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8, **kwargs}
    ref, m, v = _adam_reference(link, **full)
    opt = optimizers.Adam(**kwargs)
    _run(opt, link)
    for name, p in link.namedparams(include_uninit=False):
        numpy.testing.assert_allclose(p.array, ref[name], rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(p.update_rule.state['m'], m[name], rtol=1e-5,
                                      atol=1e-7)
        numpy.testing.assert_allclose(p.update_rule.state['v'], v[name], rtol=1e-5,
                                      atol=1e-7)
    assert ('vhat' in link.w.update_rule.state) == bool(kwargs.get('amsgrad'))


def test_adam_bias_corrected_lr():
    opt = optimizers.Adam(alpha=0.1, beta1=0.8, beta2=0.9)
    opt.setup(TwoParams())
    with pytest.raises(RuntimeError, match='not been started'):
        _ = opt.alpha_t
    opt.t = 3
    expected = 0.1 * math.sqrt(1 - 0.9 ** 3) / (1 - 0.8 ** 3)
    assert opt.alpha_t == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == pytest.approx(expected)


def test_adam_variants_set_flags():
    assert optimizers.AMSGrad().amsgrad
    assert optimizers.AdaBound().adabound and not optimizers.AdaBound().amsgrad
    b = optimizers.AMSBound(final_lr=0.2)
    assert b.amsgrad and b.adabound and b.final_lr == 0.2
    assert optimizers.AdamW(weight_decay_rate=0.3).weight_decay_rate == 0.3


def test_adabound_step_is_clipped():
    link = TwoParams()
    start = _start(link)
    opt = optimizers.AdaBound(alpha=0.5, final_lr=0.1, gamma=0.1)
    opt.setup(link)
    grads = grads_for(link, 0)
    set_grads(link, grads)
    opt.update()
    # After one step m = 0.1 g, sqrt(v) = sqrt(0.001) |g|; the step size is clipped
    # into [final_lr * (1 - 1/(gamma t + 1)), final_lr * (1 + 1/(gamma t))].
    lower, upper = 0.1 * (1 - 1 / 1.1), 0.1 * (1 + 1 / 0.1)
    alpha_t = 0.5 * math.sqrt(1 - 0.999) / (1 - 0.9)
    g = grads['/w'].astype('d')
    step = numpy.clip(alpha_t / (numpy.sqrt(0.001 * g * g) + 1e-8), lower, upper)
    numpy.testing.assert_allclose(link.w.array, start['/w'] - step * 0.1 * g, rtol=1e-5)


def test_float16_adam_uses_float32_intermediate():
    link = TwoParams(dtype=numpy.float16)
    opt = optimizers.Adam(alpha=0.01)
    _run(opt, link, steps=2)
    assert link.w.dtype == numpy.float16
    assert numpy.isfinite(link.w.array).all()


def test_hyperparameter_proxy_and_per_rule_override():
    link = TwoParams()
    opt = optimizers.SGD(lr=0.1)
    opt.setup(link)
    assert opt.lr == 0.1 and link.w.update_rule.hyperparam.lr == 0.1
    opt.lr = 0.2
    assert link.w.update_rule.hyperparam.lr == 0.2
    link.b.update_rule.hyperparam.lr = 0.0
    before = link.b.array.copy()
    w_before = link.w.array.copy()
    g = numpy.ones_like(link.w.array)
    link.w.grad = g
    link.b.grad = numpy.ones_like(before)
    opt.update()
    numpy.testing.assert_array_equal(link.b.array, before)
    numpy.testing.assert_allclose(link.w.array, w_before - 0.2 * g)
    assert opt.lr == 0.2


def test_update_with_lossfun_clears_and_backprops():
    rng = numpy.random.RandomState(0)
    model = L.Classifier(L.Linear(4, 3))
    x, t = rng.randn(8, 4).astype('f'), rng.randint(0, 3, 8).astype(numpy.int32)
    W0, b0 = model.predictor.W.array.copy(), model.predictor.b.array.copy()
    model.predictor.W.grad = numpy.full_like(W0, 1000.0)  # must be cleared first
    opt = optimizers.SGD(lr=0.5)
    opt.setup(model)
    opt.update(model, x, t)
    ref = L.Linear(4, 3, initialW=W0, initial_bias=b0)
    ref.cleargrads()
    loss = F.softmax_cross_entropy(ref(x), t)
    loss.backward()
    numpy.testing.assert_allclose(model.predictor.W.array, W0 - 0.5 * ref.W.grad, rtol=1e-5,
                                  atol=1e-6)
    assert opt.t == 1


def test_training_reduces_loss():
    rng = numpy.random.RandomState(0)
    x = rng.randn(64, 5).astype('f')
    t = (x[:, 0] > 0).astype(numpy.int32)
    for opt in (optimizers.SGD(0.5), optimizers.MomentumSGD(0.1), optimizers.Adam(0.05)):
        model = L.Classifier(chainer.Sequential(L.Linear(5, 8), F.relu, L.Linear(8, 2)))
        opt.setup(model)
        first = float(model(x, t).array)
        for _ in range(30):
            opt.update(model, x, t)
        assert float(model(x, t).array) < first * 0.5


def test_parameters_without_grad_get_zero_grad_and_lazy_ones_are_skipped():
    link = TwoParams()
    opt = optimizers.MomentumSGD(lr=0.1, momentum=0.5)
    opt.setup(link)
    link.w.grad = numpy.ones((3, 2), 'f')
    b_before = link.b.array.copy()
    opt.update()
    numpy.testing.assert_array_equal(link.b.grad, numpy.zeros(2, 'f'))
    numpy.testing.assert_array_equal(link.b.array, b_before)
    assert link.lazy.array is None and link.lazy.grad is None
    link.w.cleargrad()
    w_before = link.w.array.copy()
    opt.update()  # momentum carries on with a zero gradient
    numpy.testing.assert_allclose(link.w.array, w_before - 0.5 * 0.1, rtol=1e-6)


def test_lazy_parameter_initialized_after_setup_is_updated():
    model = L.Linear(2)
    opt = optimizers.SGD(lr=1.0)
    opt.setup(model)
    x = numpy.ones((1, 3), 'f')
    loss = F.sum(model(x))
    model.cleargrads()
    loss.backward()
    W0 = model.W.array.copy()
    opt.update()
    numpy.testing.assert_allclose(model.W.array, W0 - 1.0)


def test_disabled_rule_skips_update():
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    link.disable_update()
    before = link.w.array.copy()
    link.w.grad = numpy.ones_like(before)
    opt.update()
    numpy.testing.assert_array_equal(link.w.array, before)
    assert link.w.update_rule.t == 0
    link.enable_update()
    opt.update()
    numpy.testing.assert_allclose(link.w.array, before - 1.0)
