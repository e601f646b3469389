"""Optimizers and optimizer hooks given NumPy scalars as hyperparameters.

Each optimizer runs the same steps on the same gradients twice: with Python floats
and with NumPy twins of the same values (float16/32/64 scalars, 0-d arrays). Under
NumPy 2 a ``numpy.float64`` scalar would promote a float32 array to float64, so the
twins are stored as the equal Python numbers; the parameters must come out bitwise
equal and keep their dtype (float32 and float16).
"""

from __future__ import annotations

from typing import Any

import numpy
import pytest
from _optim_models import TwoParams, grads_for, set_grads

import chainer
from chainer import optimizer_hooks, optimizers

TWINS = [numpy.float16, numpy.float32, numpy.float64, numpy.array]

OPTIMIZERS = [
    ('SGD', {'lr': 0.1}),
    ('MomentumSGD', {'lr': 0.1, 'momentum': 0.8}),
    ('NesterovAG', {'lr': 0.1, 'momentum': 0.8}),
    ('CorrectedMomentumSGD', {'lr': 0.1, 'momentum': 0.8}),
    ('Adam', {'alpha': 0.01, 'beta1': 0.8, 'beta2': 0.9, 'eps': 1e-3, 'eta': 0.9,
              'weight_decay_rate': 0.01}),
    ('Adam', {'alpha': 0.01, 'amsgrad': True, 'adabound': True, 'final_lr': 0.1,
              'gamma': 1e-3}),
    ('AdamW', {'alpha': 0.01, 'weight_decay_rate': 0.01}),
    ('AMSGrad', {'alpha': 0.01}),
    ('AdaBound', {'alpha': 0.01, 'final_lr': 0.1, 'gamma': 1e-3}),
    ('AMSBound', {'alpha': 0.01, 'final_lr': 0.1}),
    ('AdaGrad', {'lr': 0.1, 'eps': 1e-3}),
    ('AdaDelta', {'rho': 0.9, 'eps': 1e-3}),
    ('RMSprop', {'lr': 0.1, 'alpha': 0.9, 'eps': 1e-3}),
    ('RMSpropGraves', {'lr': 0.1, 'alpha': 0.9, 'momentum': 0.8, 'eps': 1e-3}),
    ('SMORMS3', {'lr': 0.1, 'eps': 1e-3}),
    ('MSVAG', {'lr': 0.1, 'beta': 0.9}),
]


def _twin(value: Any, make: Any) -> Any:
    return make(value) if type(value) is float else value


def _python(value: Any, make: Any) -> Any:
    """The Python float equal to the twin (float32(0.1) is not 0.1)."""
    return float(make(value)) if type(value) is float else value


def _train(make_optimizer: Any, dtype: Any, hook: Any = None) -> dict[str, Any]:
    link = TwoParams(dtype=dtype)
    opt = make_optimizer()
    opt.setup(link)
    if hook is not None:
        opt.add_hook(hook)
    for step in range(3):
        set_grads(link, grads_for(link, step))
        opt.update()
    return {n: p.array for n, p in link.namedparams(include_uninit=False)}


def _assert_same(got: dict[str, Any], expected: dict[str, Any], dtype: Any) -> None:
    assert got.keys() == expected.keys()
    for name in expected:
        assert got[name].dtype == expected[name].dtype == dtype, name
        numpy.testing.assert_array_equal(got[name], expected[name])


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float16])
@pytest.mark.parametrize('make', TWINS, ids=['float16', 'float32', 'float64', '0-d'])
@pytest.mark.parametrize('name, hyper', OPTIMIZERS,
                         ids=[f'{n}-{i}' for i, (n, _) in enumerate(OPTIMIZERS)])
def test_optimizer_hyperparameters(name, hyper, make, dtype):
    cls = getattr(optimizers, name)
    expected = _train(lambda: cls(**{k: _python(v, make) for k, v in hyper.items()}), dtype)
    got = _train(lambda: cls(**{k: _twin(v, make) for k, v in hyper.items()}), dtype)
    _assert_same(got, expected, dtype)


@pytest.mark.parametrize('make', TWINS, ids=['float16', 'float32', 'float64', '0-d'])
def test_hyperparameters_set_later_and_read_back(make):
    opt = optimizers.MomentumSGD()
    opt.setup(TwoParams())
    opt.lr = make(0.25)
    opt.momentum = make(0.5)
    assert type(opt.lr) is float and opt.lr == float(make(0.25))
    assert type(opt.hyperparam.momentum) is float
    rule = opt.target.w.update_rule
    assert type(rule.hyperparam.lr) is float  # read through the parent
    rule.hyperparam.lr = numpy.float32(0.5)
    assert type(rule.hyperparam.lr) is float and opt.lr == float(make(0.25))


HOOKS = [
    ('WeightDecay', (0.01,)), ('Lasso', (0.01,)), ('GradientClipping', (0.5,)),
    ('GradientHardClipping', (-0.1, 0.1)), ('GradientLARS', (0.01, 0.001, 1e-3)),
]


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float16])
@pytest.mark.parametrize('make', TWINS, ids=['float16', 'float32', 'float64', '0-d'])
@pytest.mark.parametrize('name, args', HOOKS, ids=[h[0] for h in HOOKS])
def test_optimizer_hooks(name, args, make, dtype):
    cls = getattr(optimizer_hooks, name)
    expected = _train(lambda: optimizers.SGD(0.1), dtype,
                      cls(*(_python(a, make) for a in args)))
    got = _train(lambda: optimizers.SGD(0.1), dtype, cls(*(make(a) for a in args)))
    _assert_same(got, expected, dtype)


def test_gradient_noise_keeps_the_dtype():
    numpy.random.seed(0)
    got = _train(lambda: optimizers.SGD(0.1), numpy.float32,
                 optimizer_hooks.GradientNoise(numpy.float64(0.01)))
    assert all(a.dtype == numpy.float32 for a in got.values())


def test_loss_scale_and_non_numbers_are_left_alone():
    opt = optimizers.SGD()
    opt.setup(TwoParams())
    opt.hyperparam.schedule = 'cosine'  # any attribute may be stored
    assert opt.hyperparam.schedule == 'cosine'
    array = numpy.ones(2)
    opt.hyperparam.table = array
    assert opt.hyperparam.table is array
    assert isinstance(opt.target, chainer.Link)
