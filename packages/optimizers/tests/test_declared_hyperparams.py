"""Each optimizer's hyperparameters come from one declaration (``_hyperparams.Table``)."""

import ast
import inspect
import re
from pathlib import Path

import numpy
import pytest

from chainer import optimizer, optimizers
from chainer.optimizers import _hyperparams

_API = Path('/work/shared/api/chainer-7-api.txt')

# optimizer class -> (its module, its rule class name)
_OPTIMIZERS = {
    'AdaDelta': ('ada_delta', 'AdaDeltaRule'),
    'AdaGrad': ('ada_grad', 'AdaGradRule'),
    'Adam': ('adam', 'AdamRule'),
    'CorrectedMomentumSGD': ('corrected_momentum_sgd', 'CorrectedMomentumSGDRule'),
    'MSVAG': ('msvag', 'MSVAGRule'),
    'MomentumSGD': ('momentum_sgd', 'MomentumSGDRule'),
    'NesterovAG': ('nesterov_ag', 'NesterovAGRule'),
    'RMSprop': ('rmsprop', 'RMSpropRule'),
    'RMSpropGraves': ('rmsprop_graves', 'RMSpropGravesRule'),
    'SGD': ('sgd', 'SGDRule'),
    'SMORMS3': ('smorms3', 'SMORMS3Rule'),
}
_NAMES = sorted(_OPTIMIZERS)


def _classes(name):
    module_name, rule_name = _OPTIMIZERS[name]
    module = getattr(optimizers, module_name)
    return module, getattr(optimizers, name), getattr(module, rule_name)


def test_every_v7_optimizer_module_is_declared():
    declared = {cls.__name__ for cls in _hyperparams.DeclaredOptimizer.__subclasses__()}
    assert declared == set(_NAMES)


@pytest.mark.parametrize('name', _NAMES)
def test_signatures_defaults_and_table_agree(name):
    module, opt_class, rule_class = _classes(name)
    table = rule_class._table
    assert module._default_hyperparam is table.defaults
    params = inspect.signature(opt_class).parameters
    assert tuple(params) == table.names
    for pname, param in params.items():
        assert param.default == getattr(table.defaults, pname)
    rule_params = inspect.signature(rule_class).parameters
    assert tuple(rule_params) == ('parent_hyperparam', *table.names)
    assert all(p.default is None for p in rule_params.values())


@pytest.mark.skipif(not _API.exists(), reason='v7 API listing not available')
@pytest.mark.parametrize('name', [*_NAMES, 'AdamW', 'AMSGrad', 'AdaBound', 'AMSBound'])
def test_signature_is_v7s(name):
    line = re.search(rf'^class chainer\.optimizers\.{name}\((.*)\)$', _API.read_text(),
                     re.MULTILINE)
    expected = [(k, ast.literal_eval(v), type(ast.literal_eval(v)))
                for k, v in (item.split('=') for item in line.group(1).split(', '))]
    got = [(k, p.default, type(p.default))
           for k, p in inspect.signature(getattr(optimizers, name)).parameters.items()]
    assert got == expected


@pytest.mark.parametrize('name', _NAMES)
def test_properties_read_and_write_the_shared_hyperparameter(name):
    _, opt_class, rule_class = _classes(name)
    opt = opt_class()
    rule = opt.create_update_rule()
    assert type(rule) is rule_class
    assert rule.hyperparam.parent is opt.hyperparam
    for hp_name in rule_class._table.names:
        assert isinstance(opt_class.__dict__[hp_name], optimizer.HyperparameterProxy)
        value = getattr(opt, hp_name)
        assert value == getattr(rule_class._table.defaults, hp_name)
        new = not value if isinstance(value, bool) else value + 0.5
        setattr(opt, hp_name, new)
        assert getattr(opt.hyperparam, hp_name) == new == getattr(rule.hyperparam, hp_name)


@pytest.mark.parametrize('name', _NAMES)
def test_rule_values_override_and_none_falls_back(name):
    _, opt_class, rule_class = _classes(name)
    names = rule_class._table.names
    first = names[0]
    rule = rule_class(None, **{first: 0.25})
    assert rule.hyperparam.parent is rule_class._table.defaults
    assert rule.hyperparam.__dict__[first] == 0.25
    assert set(rule.hyperparam.get_dict()) == set(names)
    parent = opt_class().hyperparam
    rule = rule_class(parent)
    assert rule.hyperparam.get_dict() == parent.get_dict()
    assert [k for k in rule.hyperparam.__dict__ if k != '_parent'] == []


def test_adam_lr_stays_the_read_only_bias_corrected_step():
    opt = optimizers.Adam(alpha=0.01)
    opt.t = 2
    with pytest.warns(DeprecationWarning):
        lr = opt.lr
    assert lr == pytest.approx(0.01 * numpy.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2))
    with pytest.raises(AttributeError):
        opt.lr = 0.1
    assert 'lr' not in optimizers.AdamW.__dict__  # the variants inherit Adam's properties
    assert optimizers.AdamW().alpha == 0.001


def test_scalars_are_a_named_structure_of_the_current_step():
    rule = optimizers.adam.AdamRule(None, alpha=0.5, beta1=0.75, amsgrad=True)
    rule.t = 1
    s = rule._scalars(numpy.dtype(numpy.float32))
    assert s._fields == ('one_minus_beta1', 'one_minus_beta2', 'eps', 'alpha_t', 'eta',
                         'weight_decay_rate', 'amsgrad', 'bounds', 'jit')
    assert (s.one_minus_beta1, s.amsgrad, s.bounds) == (0.25, True, None)
    assert s.alpha_t == pytest.approx(0.5 * numpy.sqrt(1 - 0.999) / 0.25)
    nesterov = optimizers.nesterov_ag.NesterovAGRule(None, lr=0.5, momentum=0.5)
    assert nesterov._scalars(numpy.dtype(numpy.float64))._asdict() == {
        'lr': 0.5, 'momentum': 0.5, 'momentum2': 0.25, 'grad_rate': 0.75}


def test_declaration_errors():
    with pytest.raises(ValueError, match='undeclared'):
        _hyperparams.Table(lr=0.1, positive=('eps',))
    with pytest.raises(TypeError, match='undeclared'):
        _hyperparams.DeclaredRule.__init__(optimizers.sgd.SGDRule(), momentum=0.9)
    with pytest.raises(ValueError, match='eps'):
        optimizers.AdaDelta(eps=0)
    with pytest.raises(ValueError, match='alpha'):
        optimizers.AdaBound(alpha=-1)
