"""The return annotation of each public loss, math, evaluation, noise and util function
of ``chainer.functions`` says what a call returns.

Each function is called once with the valid arguments of ``fuzz_specs`` and its result
is matched against the annotation (read from the source text: the names it uses are
imported for type checkers only). An annotation that says ``Variable`` where the
function gives a tuple, a list or an array fails here.
"""

from __future__ import annotations

import inspect
import types
import typing

import numpy
import pytest
from fuzz_specs import base_call, public_functions

import chainer
import chainer.functions as F

_AREAS = ('loss', 'math', 'evaluation', 'noise', 'util')
_NAMES = {'Variable': chainer.Variable, 'NdArray': numpy.ndarray, 'list': list,
          'tuple': tuple, 'None': None}


def _in_areas(name: str) -> bool:
    module = getattr(F, name).__module__
    return any(module.startswith(f'chainer.functions.{a}.') for a in _AREAS)


NAMES = [n for n in public_functions() if _in_areas(n)]


def _annotation(func: typing.Callable[..., object]) -> object:
    """The return annotation of ``func`` (the undecorated one), evaluated."""
    text = inspect.unwrap(func).__annotations__['return']
    return eval(text, dict(_NAMES))  # our own source text


def _matches(value: object, ann: object) -> bool:
    if ann is None:
        return value is None
    if isinstance(ann, type):
        return isinstance(value, ann)
    origin = typing.get_origin(ann)
    args = typing.get_args(ann)
    if origin in (types.UnionType, typing.Union):
        return any(_matches(value, a) for a in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(v, args[0]) for v in value)
        return len(value) == len(args) and all(_matches(v, a) for v, a in zip(value, args))
    if origin is list:
        return isinstance(value, list) and all(_matches(v, args[0]) for v in value)
    raise AssertionError(f'unexpected annotation {ann!r}')


def test_the_areas_have_functions():
    assert {'softmax_cross_entropy', 'sum', 'accuracy', 'dropout', 'forget'} <= set(NAMES)


@pytest.mark.parametrize('name', NAMES)
def test_result_matches_return_annotation(name):
    args, kwargs = base_call(name)
    with chainer.using_config('train', True):
        out = getattr(F, name)(*args, **kwargs)
    ann = _annotation(getattr(F, name))
    assert _matches(out, ann), f'F.{name} returned {type(out).__name__}, annotated {ann}'


@pytest.mark.parametrize('name, kwargs, kinds', [
    ('dropout', {'return_mask': True}, (chainer.Variable, numpy.ndarray)),
    ('gaussian', {'return_eps': True}, (chainer.Variable, numpy.ndarray)),
])
def test_keyword_pair_results(name, kwargs, kinds):
    # the overloads say: with the keyword true, a (Variable, array) pair
    args, base_kwargs = base_call(name)
    with chainer.using_config('train', True):
        out = getattr(F, name)(*args, **base_kwargs, **kwargs)
    assert isinstance(out, tuple) and len(out) == 2
    assert all(isinstance(o, k) for o, k in zip(out, kinds))
    assert _matches(out, _annotation(getattr(F, name)))


def test_negative_sampling_returns_samples_on_request():
    x = numpy.random.RandomState(0).rand(2, 3).astype(numpy.float32)
    W = numpy.random.RandomState(1).rand(5, 3).astype(numpy.float32)
    t = numpy.array([1, 4], numpy.int32)

    def sampler(shape):
        return numpy.zeros(shape, numpy.int32)

    loss = F.negative_sampling(x, t, W, sampler, 2)
    assert isinstance(loss, chainer.Variable)
    loss, samples = F.negative_sampling(x, t, W, sampler, 2, return_samples=True)
    assert isinstance(loss, chainer.Variable) and samples.shape == (2, 3)
    assert samples[:, 0].tolist() == [1, 4]


def test_identity_one_input_gives_a_variable_several_a_tuple():
    a = numpy.ones((2,), numpy.float32)
    assert isinstance(F.identity(a), chainer.Variable)
    out = F.identity(a, a)
    assert isinstance(out, tuple) and len(out) == 2
