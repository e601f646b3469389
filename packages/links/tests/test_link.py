"""Tests of Link: parameter and persistent registration, traversal, gradients, copies."""

import copy
import warnings

import numpy
import pytest

import chainer
from chainer import initializers
from chainer.link import Link


class Affine(Link):
    def __init__(self, n_in=3, n_out=2):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(initializers.Normal(1.0), (n_out, n_in))
            self.b = chainer.Parameter(0.0, (n_out,))
            self.lazy = chainer.Parameter(initializers.Constant(2.0))
        self.add_persistent('count', 0)
        self.plain = chainer.Parameter(numpy.zeros(1, 'f'))  # outside init_scope

    def forward(self, x):
        return chainer.functions.linear(x, self.W, self.b)


def test_init_scope_registers_parameters_only_inside_scope():
    link = Affine()
    assert link._params == {'W', 'b', 'lazy'}
    assert 'plain' not in link._params
    assert link.W.name == 'W'
    assert not link.within_init_scope
    with link.init_scope():
        assert link.within_init_scope
    assert not link.within_init_scope


def test_params_and_namedparams_sorted_and_filter_uninitialized():
    link = Affine()
    assert [name for name, _ in link.namedparams()] == ['/W', '/b', '/lazy']
    assert [p.name for p in link.params()] == ['W', 'b', 'lazy']
    assert [name for name, _ in link.namedparams(include_uninit=False)] == ['/W', '/b']
    assert len(list(link.params(include_uninit=False))) == 2


def test_link_kwargs_create_nan_parameters():
    link = Link(x=(2, 3), y=((4,), numpy.float64), z=None)
    assert link.x.shape == (2, 3) and link.x.dtype == numpy.float32
    assert numpy.isnan(link.x.array).all()
    assert link.y.dtype == numpy.float64
    assert link.z.array is None
    with pytest.raises(TypeError):
        Link(bad='not a shape')


def test_add_param_and_errors():
    link = Link()
    link.add_param('w', (2,), initializer=initializers.Constant(3.0))
    numpy.testing.assert_array_equal(link.w.array, [3.0, 3.0])
    link.add_param('u')
    assert link.u.array is None
    with pytest.raises(AttributeError, match='attribute exists'):
        link.add_param('w', (3,))
    link.add_param('d', 4, dtype=numpy.float64)
    assert link.d.dtype == numpy.float64 and numpy.isnan(link.d.array).all()


def test_persistent_values():
    link = Link()
    link.add_persistent('mean', numpy.ones(3, 'f'))
    assert link._persistent == {'mean'}
    with pytest.raises(AttributeError):
        link.add_persistent('mean', 1)
    link.other = 5
    link.register_persistent('other')
    assert link._persistent == {'mean', 'other'}
    with pytest.raises(AttributeError, match='non-existent'):
        link.register_persistent('nothing')


def test_delattr_unregisters():
    link = Affine()
    del link.b
    assert 'b' not in link._params
    del link.count
    assert 'count' not in link._persistent


def test_links_namedlinks_children_of_plain_link():
    link = Affine()
    assert list(link.links()) == [link]
    assert list(link.links(skipself=True)) == []
    assert list(link.namedlinks()) == [('/', link)]
    assert list(link.children()) == []


def test_count_params_warns_for_uninitialized():
    link = Affine()
    with pytest.warns(UserWarning, match='/lazy'):
        assert link.count_params() == 3 * 2 + 2
    link.lazy.initialize((5,))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert link.count_params() == 6 + 2 + 5


def test_cleargrads_and_zerograds():
    link = Affine()
    for p in link.params(include_uninit=False):
        p.grad = numpy.ones_like(p.array)
    link.cleargrads()
    assert all(p.grad is None for p in link.params())
    with pytest.warns(DeprecationWarning):
        link.zerograds()
    for p in link.params(include_uninit=False):
        numpy.testing.assert_array_equal(p.grad, numpy.zeros_like(p.array))


def test_addgrads():
    a, b = Affine(), Affine()
    a.cleargrads()  # new parameters start with NaN gradients, as in Chainer v7
    a.W.grad = numpy.ones_like(a.W.array)
    b.W.grad = numpy.full_like(b.W.array, 2.0)
    b.b.grad = numpy.full_like(b.b.array, 5.0)
    a.addgrads(b)
    numpy.testing.assert_array_equal(a.W.grad, numpy.full_like(a.W.array, 3.0))
    numpy.testing.assert_array_equal(a.b.grad, numpy.full_like(a.b.array, 5.0))


def test_copyparams_copies_data_and_persistents_not_grads():
    a, b = Affine(), Affine()
    a.cleargrads()
    b.W.grad = numpy.ones_like(b.W.array)
    b.count = 7
    b.lazy.initialize((2,))
    a.copyparams(b)
    numpy.testing.assert_array_equal(a.W.array, b.W.array)
    assert a.W.array is not b.W.array
    assert a.W.grad is None
    assert a.count == 7
    numpy.testing.assert_array_equal(a.lazy.array, [2.0, 2.0])
    a.count = 0
    a.copyparams(b, copy_persistent=False)
    assert a.count == 0


def test_copy_share_mode_shares_arrays_not_parameters():
    link = Affine()
    link.W.grad = numpy.ones_like(link.W.array)
    link.name = 'orig'
    c = link.copy()
    assert c.name is None and link.name == 'orig'
    assert c.W is not link.W
    assert c.W.array is link.W.array
    assert c.W.grad is None and link.W.grad is not None
    assert c._params == link._params and c._params is not link._params
    c.add_persistent('extra', 1)
    assert 'extra' not in link._persistent


def test_copy_copy_mode_is_deep():
    link = Affine()
    c = link.copy(mode='copy')
    numpy.testing.assert_array_equal(c.W.array, link.W.array)
    assert c.W.array is not link.W.array
    c.W.array[...] = 0
    assert (link.W.array != 0).any()


def test_copy_init_mode_reinitializes():
    numpy.random.seed(0)
    link = Affine(20, 30)
    c = link.copy(mode='init')
    assert c.W.shape == link.W.shape
    assert not numpy.array_equal(c.W.array, link.W.array)
    assert c.lazy.array is None


def test_copy_bad_mode():
    with pytest.raises(ValueError, match='copy mode'):
        Affine().copy(mode='deep')


def test_update_enabled_switch():
    class Rule:
        enabled = True

    link = Affine()
    assert not link.update_enabled
    for p in link.params():
        p.update_rule = Rule()
    assert link.update_enabled
    link.disable_update()
    assert not link.update_enabled
    link.enable_update()
    assert link.update_enabled


def test_call_runs_forward_and_missing_forward_errors():
    link = Affine()
    x = numpy.ones((4, 3), 'f')
    y = link(x)
    numpy.testing.assert_allclose(y.array, x @ link.W.array.T + link.b.array, rtol=1e-6)
    with pytest.raises(AttributeError, match='forward'):
        Link()(x)


def test_device_and_to_device():
    link = Affine()
    assert link.xp is numpy
    assert link.device == chainer.get_device('@numpy')
    assert link.to_device('@numpy') is link
    with pytest.warns(DeprecationWarning):
        assert link.to_cpu() is link


def test_serialize_calls_serializer_for_params_and_persistents():
    calls = {}

    def serializer(key, value):
        calls[key] = value
        return value

    link = Affine()
    link.serialize(serializer)
    assert set(calls) == {'W', 'b', 'lazy', 'count'}
    assert calls['lazy'] is None


def test_serialize_initializes_lazy_parameter():
    link = Affine()
    stored = numpy.arange(4, dtype='f')

    def serializer(key, value):
        if key == 'lazy':
            return stored
        return value

    link.serialize(serializer)
    numpy.testing.assert_array_equal(link.lazy.array, stored)
    assert link.lazy.array is not stored


def test_serialize_refuses_text_for_a_lazy_parameter_naming_the_entry():
    class Loader(chainer.Deserializer):
        def __call__(self, key, value):
            return numpy.asarray('text') if key == 'lazy' else value

        def describe(self, key):
            return f"'outer/{key}' in 'model.npz'"

    link = Affine()
    with pytest.raises(ValueError, match="'outer/lazy' in 'model.npz'.*not numbers"):
        link.serialize(Loader())
    assert link.lazy.array is None


def test_deepcopy_and_str():
    link = Affine()
    c = copy.deepcopy(link)
    numpy.testing.assert_array_equal(c.W.array, link.W.array)
    assert str(link) == 'Affine()'


def test_device_id_of_a_cpu_link_is_none():
    link = chainer.Link()
    assert link._device_id is None


def test_global_link_hooks_are_reachable_as_in_v7():
    from chainer import link_hooks

    assert chainer._get_link_hooks() == {}
    hook = link_hooks.TimerHook()
    with hook:
        assert list(chainer._get_link_hooks().values()) == [hook]
    assert chainer._get_link_hooks() == {}


def test_missing_link_init_is_reported_clearly():
    class NoInit(Link):
        def __init__(self):
            pass

        def forward(self, x):
            return x

    class ScopeNoInit(Link):
        def __init__(self):
            with self.init_scope():
                pass

    class AddParamNoInit(Link):
        def __init__(self):
            self.add_param('p', (2,))

    message = r'^Link\.__init__\(\) has not been called\.$'
    with pytest.raises(RuntimeError, match=message):
        NoInit()(numpy.ones(2, 'f'))
    with pytest.raises(RuntimeError, match=message):
        ScopeNoInit()
    with pytest.raises(RuntimeError, match=message):
        AddParamNoInit()


def test_call_falls_back_to_a_mixin_call():
    class Mixin:
        def __call__(self, *args, **kwargs):
            return ('mixin', args, kwargs)

    class Injected(Link, Mixin):
        pass

    assert Injected()(1, a=2) == ('mixin', (1,), {'a': 2})


def test_copy_keeps_the_name_except_in_share_mode():
    parent = chainer.Chain()
    with parent.init_scope():
        parent.child = Affine()
    assert parent.child.copy('copy').name == 'child'
    assert parent.child.copy('init').name == 'child'
    assert parent.child.copy('share').name is None


def test_copy_init_gives_nan_grads_copy_keeps_them():
    link = Affine()
    link.W.grad = numpy.ones_like(link.W.array)
    c = link.copy('copy')
    numpy.testing.assert_array_equal(c.W.grad, link.W.grad)
    i = link.copy('init')
    assert numpy.isnan(i.W.grad).all()
