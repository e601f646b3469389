"""Optimizer, GradientMethod, UpdateRule and Hyperparameter behaviour."""

import copy

import numpy
import pytest
from _optim_models import TwoParams

import chainer
from chainer import optimizer, optimizers


class DictSaver(chainer.Serializer):
    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        return DictSaver(self.target, self.path + key.strip('/') + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = copy.deepcopy(value)
        return value


class DictLoader(chainer.Deserializer):
    def __init__(self, source, path=''):
        self.source = source
        self.path = path

    def __getitem__(self, key):
        return DictLoader(self.source, self.path + key.strip('/') + '/')

    def __call__(self, key, value):
        stored = self.source[self.path + key]  # KeyError when missing
        if value is None:
            return copy.deepcopy(stored)
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        return type(value)(stored)


def test_hyperparameter_falls_back_on_parent():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    child = optimizer.Hyperparameter(parent)
    assert child.lr == 0.1 and child.parent is parent
    child.lr = 0.5
    assert child.lr == 0.5 and parent.lr == 0.1
    parent.momentum = 0.9
    assert child.get_dict() == {'lr': 0.5, 'momentum': 0.9}
    assert repr(child) == 'Hyperparameter(lr=0.5, momentum=0.9)'
    with pytest.raises(AttributeError, match='not set'):
        _ = child.beta
    clone = copy.deepcopy(child)
    assert clone.lr == 0.5 and clone.momentum == 0.9


def test_setup_returns_self_and_rejects_non_links():
    opt = optimizers.SGD()
    link = TwoParams()
    assert opt.setup(link) is opt
    assert opt.target is link and opt.t == 0 and opt.epoch == 0
    assert all(isinstance(p.update_rule, optimizers.sgd.SGDRule) for p in link.params())
    with pytest.raises(TypeError, match='must be a link'):
        optimizers.SGD().setup(object())


def test_update_before_setup_is_a_clear_error():
    with pytest.raises(RuntimeError, match='setup'):
        optimizers.SGD().update()


def test_new_epoch_and_auto():
    opt = optimizers.SGD().setup(TwoParams())
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError):
        opt.new_epoch()


def test_t_counts_updates():
    link = TwoParams()
    opt = optimizers.SGD().setup(link)
    for _ in range(3):
        link.w.grad = numpy.zeros((3, 2), 'f')
        opt.update()
    assert opt.t == 3 and link.w.update_rule.t == 3


def test_optimizer_hooks_order_timing_and_errors():
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0)
    with pytest.raises(RuntimeError, match='setup'):
        opt.add_hook(lambda o: None)
    opt.setup(link)
    seen = []

    def pre(o):
        seen.append(('pre', o.t))

    def post(o):
        seen.append(('post', o.t))

    class EachParam:
        name = 'each'
        call_for_each_param = True

        def __call__(self, rule, param):
            seen.append(('each', param.name))

    opt.add_hook(pre)
    opt.add_hook(post, timing='post')
    opt.add_hook(EachParam())
    with pytest.raises(KeyError):
        opt.add_hook(pre)
    with pytest.raises(ValueError):
        opt.add_hook(lambda o: None, name='x', timing='later')
    with pytest.raises(TypeError):
        opt.add_hook(42)
    link.w.grad = numpy.zeros((3, 2), 'f')
    opt.update()
    assert seen == [('pre', 0), ('each', 'b'), ('each', 'lazy'), ('each', 'w'), ('post', 1)]
    opt.remove_hook('pre')
    opt.remove_hook('post')
    opt.remove_hook('each')
    with pytest.raises(KeyError):
        opt.remove_hook('pre')
    seen.clear()
    opt.update()
    assert seen == []


def test_update_rule_hooks():
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    rule = link.w.update_rule
    calls = []

    def double_grad(r, param):
        calls.append(r)
        param.grad *= 2

    rule.add_hook(double_grad)
    with pytest.raises(KeyError):  # a duplicate name, as in v7
        rule.add_hook(double_grad)
    before = link.w.array.copy()
    link.w.grad = numpy.ones_like(before)
    opt.update()
    numpy.testing.assert_allclose(link.w.array, before - 2.0)
    assert calls == [rule]
    rule.remove_hook('double_grad')
    with pytest.raises(KeyError):
        rule.remove_hook('double_grad')


def test_update_rule_base_is_abstract():
    rule = optimizer.UpdateRule()
    param = chainer.Parameter(numpy.zeros(2, 'f'))
    param.grad = numpy.zeros(2, 'f')
    with pytest.raises(NotImplementedError):
        rule.update(param)
    with pytest.raises(NotImplementedError):
        optimizer.GradientMethod().setup(TwoParams())


def test_serialize_round_trip_of_optimizer_state():
    link = TwoParams()
    opt = optimizers.Adam(alpha=0.01).setup(link)
    for i in range(3):
        link.w.grad = numpy.full((3, 2), i + 1.0, 'f')
        link.b.grad = numpy.full(2, -i, 'f')
        opt.update()
    opt.new_epoch()
    saver = DictSaver()
    opt.serialize(saver)
    assert saver.target['t'] == 3 and saver.target['epoch'] == 1
    assert set(saver.target) >= {'w/t', 'w/m', 'w/v', 'b/m', 'b/v', 'lazy/t'}

    link2 = TwoParams()
    opt2 = optimizers.Adam(alpha=0.01).setup(link2)
    opt2.serialize(DictLoader(saver.target))
    assert opt2.t == 3 and opt2.epoch == 1
    assert link2.w.update_rule.t == 3
    numpy.testing.assert_array_equal(link2.w.update_rule.state['m'],
                                     link.w.update_rule.state['m'])
    assert link2.lazy.update_rule.state is None
    # Both continue identically.
    link2.copyparams(link)
    for lk in (link, link2):
        lk.w.grad = numpy.ones((3, 2), 'f')
        lk.b.grad = numpy.ones(2, 'f')
    opt.update()
    opt2.update()
    numpy.testing.assert_allclose(link2.w.array, link.w.array, rtol=1e-6)


def _saved_adam_state():
    link = TwoParams()
    opt = optimizers.Adam().setup(link)
    link.w.grad = numpy.ones((3, 2), 'f')
    link.b.grad = numpy.ones(2, 'f')
    opt.update()
    saver = DictSaver()
    opt.serialize(saver)
    return saver.target


def test_serialize_partial_state_is_an_error_and_a_missing_one_is_not():
    stored = _saved_adam_state()
    del stored['w/v']
    fresh = optimizers.Adam().setup(TwoParams())
    with pytest.raises(KeyError, match='w/v'):
        fresh.serialize(DictLoader(stored))
    del stored['w/m']  # no state at all for w: initialized at the first update
    fresh = optimizers.Adam().setup(TwoParams())
    fresh.serialize(DictLoader(stored))
    assert fresh.target.w.update_rule.state is None
    assert fresh.target.b.update_rule.state['m'].shape == (2,)


def test_serialize_checks_a_loaded_state_against_the_parameter():
    stored = _saved_adam_state()
    stored['w/m'] = numpy.zeros((5, 5), 'f')

    class Loader(DictLoader):
        def __getitem__(self, key):
            return Loader(self.source, self.path + key.strip('/') + '/')

        def describe(self, key):
            return repr(self.path + key)

    fresh = optimizers.Adam().setup(TwoParams())
    with pytest.raises(ValueError, match=r"'w/m'.*shape \(3, 2\)"):
        fresh.serialize(Loader(stored))


def test_serialize_into_allocated_state_copies_in_place():
    link = TwoParams()
    opt = optimizers.MomentumSGD().setup(link)
    link.w.grad = numpy.ones((3, 2), 'f')
    opt.update()
    saver = DictSaver()
    opt.serialize(saver)
    v = link.w.update_rule.state['v']
    v[...] = 0
    opt.serialize(DictLoader(saver.target))
    assert link.w.update_rule.state['v'] is v
    numpy.testing.assert_allclose(v, -0.01)


def test_serialize_missing_state_is_left_for_the_first_update():
    link = TwoParams()
    opt = optimizers.MomentumSGD().setup(link)
    opt.serialize(DictLoader({'t': 0, 'epoch': 0, 'b/t': 0, 'w/t': 0, 'lazy/t': 0}))
    assert link.w.update_rule.state is None
    link.w.grad = numpy.ones((3, 2), 'f')
    opt.update()
    numpy.testing.assert_allclose(link.w.update_rule.state['v'], -0.01)


def test_serialize_missing_keys_are_errors():
    link = TwoParams()
    opt = optimizers.MomentumSGD().setup(link)
    with pytest.raises(KeyError):
        opt.serialize(DictLoader({'t': 0, 'epoch': 0, 'b/t': 0}))
    link = TwoParams()
    opt = optimizers.Adam().setup(link)
    partial = {'t': 0, 'epoch': 0, 'b/t': 0, 'b/m': numpy.zeros(2, 'f')}
    with pytest.raises(KeyError):
        opt.serialize(DictLoader(partial))


def test_loss_scale_is_divided_out():
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.set_loss_scale(8.0)

    def lossfun():
        return chainer.functions.sum(link.w * 1.0)

    before = link.w.array.copy()
    opt.update(lossfun)
    numpy.testing.assert_allclose(link.w.array, before - 1.0)


def test_dynamic_loss_scaling_skips_overflowing_update():
    # As in v7: the scale starts at 1 and doubles per update until the first
    # overflow, which skips the parameter updates (the step count still advances)
    # and halves the scale; then it grows by 2 ** (1 / interval) per update.
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.loss_scaling(interval=2)
    assert opt._loss_scale == 1.0
    grads = [numpy.ones((3, 2), 'f')] * 2 + [numpy.full((3, 2), numpy.inf, 'f')] + \
        [numpy.ones((3, 2), 'f')] * 2
    expected_scale = [2.0, 4.0, 2.0, 2.0 * 2 ** 0.5, 4.0]
    expected_w = link.w.array.copy()
    for step, (grad, scale) in enumerate(zip(grads, expected_scale, strict=True)):
        link.w.grad = grad.copy()
        if step == 2:
            with pytest.warns(UserWarning, match='Non finite number found in param.grad of /w'):
                opt.update()
            assert not opt.is_safe_to_update()
        else:
            opt.update()
            expected_w = expected_w - 1.0
        numpy.testing.assert_array_equal(link.w.array, expected_w)
        assert opt._loss_scale == pytest.approx(scale) and opt.t == step + 1
    assert link.w.update_rule.t == 4


def test_static_loss_scaling_never_skips():
    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.loss_scaling(scale=8.0)
    link.w.grad = numpy.full((3, 2), numpy.inf, 'f')
    opt.update()
    assert numpy.isinf(link.w.array).all() and opt._loss_scale == 8.0


@pytest.mark.parametrize('kwargs', [{'interval': 0}, {'scale': 0}, {'scale': -1.0}])
def test_loss_scaling_rejects_bad_settings(kwargs):
    with pytest.raises(ValueError):
        optimizers.Adam().loss_scaling(**kwargs)


def test_dynamic_loss_scale_floor_and_ceiling():
    link = TwoParams()
    opt = optimizers.SGD().setup(link)
    opt.loss_scaling()
    link.w.grad = numpy.full((3, 2), numpy.nan, 'f')
    with pytest.warns(UserWarning):
        opt.update()
    assert opt._loss_scale == 1  # never below 1
    opt._loss_scale = 2.0 ** 20
    link.w.grad = numpy.zeros((3, 2), 'f')
    opt.update()
    assert opt._loss_scale == 65504  # the largest float16


def test_use_fp32_update_keeps_master_copy():
    link = TwoParams(dtype=numpy.float16)
    opt = optimizers.SGD(lr=1e-4)
    opt.use_fp32_update()
    opt.setup(link)
    before = link.w.array.astype('f')
    for _ in range(10):
        link.w.grad = numpy.ones((3, 2), numpy.float16)
        opt.update()
    assert link.w.dtype == numpy.float16
    numpy.testing.assert_allclose(link.w.array.astype('f'), before - 1e-3, rtol=1e-3,
                                  atol=1e-3)
    master = link.w.update_rule._fp32_param
    numpy.testing.assert_allclose(master.array, before - 1e-3, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_fp32_update_of_an_uninitialized_parameter(dtype):
    def initializer(array):
        raise AssertionError('never called')

    initializer.dtype = dtype
    param = chainer.Parameter(initializer)
    seen = []
    rule = optimizer.UpdateRule()
    rule.update_core = seen.append
    rule.use_fp32_update()
    rule.update(param)
    # a float16 parameter is stood in for by a float32 one; it stays uninitialized
    assert (seen[0] is param) == (dtype != numpy.float16)
    assert seen[0].dtype == numpy.float32
    assert param.array is None and param.dtype == dtype


def test_hook_timing_attribute_that_is_not_a_string_counts_as_pre():
    class Hook:
        name = 'odd'
        timing = object()

        def __call__(self, rule, param):
            pass

    rule = optimizer.UpdateRule()
    rule.add_hook(Hook())
    assert 'odd' in rule._pre_update_hooks
    bad = Hook()
    bad.name, bad.timing = 'bad', 'later'
    with pytest.raises(ValueError, match='timing'):
        rule.add_hook(bad)


def test_deserialize_state_of_a_rule_whose_init_state_writes_through_the_rule():
    # an init_state written as a closure over the rule object (not over `self`) must be
    # able to fill the state while the keys to load are found
    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            pass

    rule = Rule()

    def init_state(param):
        rule.state['a'] = 0
        rule.state['b'] = numpy.zeros(3, 'f')

    rule.init_state = init_state
    rule.serialize(DictLoader({'t': 7, 'a': 1, 'b': numpy.arange(3, dtype='f')}))
    assert rule.t == 7 and rule.state['a'] == 1
    numpy.testing.assert_array_equal(rule.state['b'], [0, 1, 2])
    rule = Rule()
    rule.init_state = init_state
    with pytest.raises(KeyError):
        rule.serialize(DictLoader({'t': 7, 'b': numpy.arange(3, dtype='f')}))
