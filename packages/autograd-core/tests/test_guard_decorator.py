"""The argument guard is a decorator on each function where it is defined."""

from __future__ import annotations

import inspect
import sys
import textwrap

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions import _guard

PUBLIC = sorted(n for n, o in vars(F).items()
                if not n.startswith('_') and inspect.isfunction(o))


def test_every_public_function_is_counted():
    assert len(PUBLIC) > 200


@pytest.mark.parametrize('name', PUBLIC)
def test_public_function_is_the_guarded_one_in_its_module(name):
    func = getattr(F, name)
    assert getattr(func, '_chainer_guarded', False), name
    impl = func.__wrapped__
    assert not getattr(impl, '_chainer_guarded', False)
    # the module that defines it holds the same (guarded) object
    assert getattr(sys.modules[impl.__module__], name) is func
    # and the decorator is written above the def, where a reader sees it
    source = inspect.getsource(impl)
    assert source.startswith('@guarded\ndef ' + name + '('), source[:80]


def test_relu_paths_are_one_function():
    from chainer.functions.activation import relu as relu_module

    assert F.relu is relu_module.relu
    assert inspect.signature(F.relu) == inspect.signature(F.relu.__wrapped__)
    assert F.relu.__doc__ == F.relu.__wrapped__.__doc__


def test_guarded_labels_errors_with_the_function_name():
    @_guard.guarded
    def frob(x, size):
        raise ValueError('bad value')

    with pytest.raises(ValueError) as info:
        frob(numpy.ones(2), None)
    assert frob.__name__ == 'frob'
    assert 'F.frob()' in str(info.value)


def test_no_module_holds_an_unguarded_function():
    # nothing rebinds a function to its implementation at import: every module of
    # chainer.functions that names a public function holds the guarded one
    impls = {id(getattr(F, name).__wrapped__): name for name in PUBLIC}
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith('chainer.functions'):
            continue
        for attr, value in vars(module).items():
            assert id(value) not in impls, f'{module_name}.{attr} is unguarded'


def _in_functions(source):
    """The names ``source`` defines, run as if it were a module of chainer.functions."""
    namespace = {'__name__': 'chainer.functions._nesting_example',
                 'guarded': _guard.guarded}
    exec(textwrap.dedent(source), namespace)
    return namespace


NESTED = _in_functions('''
    @guarded
    def inner(size):
        return size + 1

    @guarded
    def outer(width):
        return 2 * helper(width)

    def helper(width):  # a private helper of chainer.functions in between
        return inner(width)

    @guarded
    def apply(func, x):
        return func(x)
    ''')


def test_an_inner_error_is_explained_by_the_outer_guard():
    with pytest.raises(TypeError) as info:
        NESTED['outer'](None)
    message = str(info.value)
    assert "[F.outer(): argument 'width' is at fault: None (NoneType)]" in message, message
    assert 'F.inner' not in message and 'size' not in message
    # called directly, the inner function explains its own error
    with pytest.raises(TypeError) as info:
        NESTED['inner'](None)
    assert "[F.inner(): argument 'size' is at fault" in str(info.value)


def test_a_translated_inner_error_is_translated_once_by_the_outer_guard():
    @_guard.guarded
    def frob(x):
        return x.shape

    nested = _in_functions('''
        @guarded
        def wrap(data):
            return frob(data)
        ''')
    nested['frob'] = frob  # frob is defined here (a test), called by wrap's code
    with pytest.raises(TypeError) as info:
        nested['wrap'](None)
    message = str(info.value)
    assert message.startswith("F.wrap(): argument 'data' is at fault"), message
    assert isinstance(info.value.__cause__, AttributeError)
    assert message.count('F.') == 1, message


def test_a_users_callable_in_between_keeps_the_inner_explanation():
    # the inner call is the user's own (made by the function F.forget runs): it names
    # the argument of the function the user called
    with pytest.raises(TypeError) as info:
        NESTED['apply'](lambda x: NESTED['inner'](x), None)
    assert "[F.inner(): argument 'size' is at fault" in str(info.value)
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(TypeError) as info:
        F.forget(lambda v: F.relu6(None), x)
    assert str(info.value).startswith("F.relu6(): argument 'x' is at fault"), info.value


def test_real_compositions_name_the_outer_argument():
    # selu is elu inside: the guard the caller reached explains, with its argument
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError) as info:
        F.selu('a')
    assert "[F.selu(): argument 'x' is at fault" in str(info.value)
    assert 'F.elu' not in str(info.value)
    # average reshapes the weights: reshape's own guard adds nothing to its error
    with pytest.raises(ValueError) as info:
        F.average(x, axis=0, weights=numpy.ones(5, numpy.float32))
    notes = getattr(info.value, '__notes__', [])
    assert notes == ['weights of shape (5,) do not match axis 0 of length 2'], notes


def test_an_alias_reports_its_own_name():
    # relu6 is clipped_relu(x, 6) inside: the note names the function the caller used
    with pytest.raises(TypeError) as info:
        F.relu6('a')
    assert "[F.relu6(): argument 'x' is at fault" in str(info.value), str(info.value)
    assert 'clipped_relu' not in str(info.value)
