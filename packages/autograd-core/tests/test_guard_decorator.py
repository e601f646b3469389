"""The argument guard is a decorator on each function where it is defined."""

from __future__ import annotations

import inspect
import sys

import numpy
import pytest

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


def test_unguarded_is_the_implementation():
    assert _guard.unguarded(F.relu) is F.relu.__wrapped__
    plain = F.relu.__wrapped__
    assert _guard.unguarded(plain) is plain


def test_an_alias_reports_its_own_name():
    # relu6 is clipped_relu(x, 6) inside: the note names the function the caller used
    with pytest.raises(TypeError) as info:
        F.relu6('a')
    assert "[F.relu6(): argument 'x' is at fault" in str(info.value), str(info.value)
    assert 'clipped_relu' not in str(info.value)
