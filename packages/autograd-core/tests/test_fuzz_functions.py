"""Property-based fuzzing of every public function of ``chainer.functions``.

Each example starts from a valid call (``fuzz_specs.base_call``) and replaces zero,
one or two of its arguments (or an optional parameter left out) with a hostile or
borderline value chosen by the argument's role. The property: the call returns
numeric Variables, or raises TypeError, ValueError, IndexError or InvalidType whose
message names an argument, within a time limit and a memory limit.

Profiles (``HYPOTHESIS_PROFILE``): ``ci`` (the default: few examples per function,
derandomized) and ``long`` (``nox -s fuzz``). With ``CHAINER_FUZZ_REPORT=path``
the counts of calls and outcomes are written to that file as JSON;
``CHAINER_FUZZ_EXAMPLES=n`` sets the number of examples per function.
"""

from __future__ import annotations

import collections
import contextlib
import inspect
import json
import os
import re
import signal
import warnings
from collections.abc import Iterator
from typing import Any

import hypothesis
import hypothesis.strategies as st
import numpy
import pytest
from fuzz_specs import base_call, public_functions, role

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

hypothesis.settings.register_profile(
    'ci', max_examples=12, deadline=None, derandomize=True, database=None,
    suppress_health_check=list(hypothesis.HealthCheck))
hypothesis.settings.register_profile(
    'long', max_examples=400, deadline=None, database=None,
    suppress_health_check=list(hypothesis.HealthCheck))
PROFILE = os.environ.get('HYPOTHESIS_PROFILE', 'ci')
SETTINGS = hypothesis.settings.get_profile(PROFILE)
if os.environ.get('CHAINER_FUZZ_EXAMPLES'):  # examples per function, overriding the profile
    SETTINGS = hypothesis.settings(SETTINGS,
                                   max_examples=int(os.environ['CHAINER_FUZZ_EXAMPLES']))

ALLOWED = (TypeError, ValueError, IndexError, InvalidType)
TIME_LIMIT = float(os.environ.get('CHAINER_FUZZ_TIME_LIMIT', '10'))
MEMORY_HEADROOM = 3 << 30  # bytes of address space a call may add
OUTCOMES: collections.Counter[str] = collections.Counter()
FUNCTIONS = public_functions()

_INTS = [-1, 0, 1, 2, 3, 7, -10**9, 2**31, 2**63, 2**100, -2**100, 1.5, float('nan'),
         None, 'a', True, numpy.int64(2), (2, 2), []]
_REALS = [0.0, -1.0, 1e-30, float('nan'), float('inf'), -float('inf'), 1e308, 2**63,
          2**100, None, 'a', numpy.float32(0.5), True, [1.0], numpy.ones(2)]
_STRS = ['', 'zzz', None, 1, 'mean', 'no', b'x', 'float64']
_BOOLS = [None, 2, 'yes', 0, 1, numpy.bool_(True)]
_CALLABLES = [None, 1, 'f', lambda *a: None]
_ANY = [None, 1.5, 'a', -1, 2**63, numpy.ones(2), [1], object()]


class CallTimeout(BaseException):
    """A call ran past the time limit (BaseException: no function may swallow it)."""


def _alarm(signum: int, frame: Any) -> None:
    raise CallTimeout


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope='module', autouse=True)
def _memory_limit() -> Iterator[None]:
    """Cap the address space during the fuzz tests (so an absurd allocation fails)."""
    try:
        import resource

        with open('/proc/self/statm') as statm:
            size = int(statm.read().split()[0]) * resource.getpagesize()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = size + MEMORY_HEADROOM
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        report = os.environ.get('CHAINER_FUZZ_REPORT')
        if report:
            with open(report, 'w') as out:
                json.dump({'profile': PROFILE, 'functions': len(FUNCTIONS),
                           'calls': sum(OUTCOMES.values()), 'outcomes': dict(OUTCOMES)},
                          out, indent=1)


def _hostile_array(draw: Any, valid: Any) -> Any:
    """A hostile or borderline replacement for an array argument."""
    x = numpy.asarray(valid.array if isinstance(valid, chainer.Variable) else valid)
    options = [
        lambda: None, lambda: x.tolist(), lambda: 'a', lambda: 1.5, lambda: 3,
        lambda: x.astype(numpy.int32), lambda: x.astype(bool),
        lambda: x.astype(numpy.complex64), lambda: x.astype(numpy.float16),
        lambda: x.astype(numpy.float64), lambda: x.astype(str), lambda: x.astype(object),
        lambda: x[None], lambda: x.reshape(-1), lambda: numpy.asarray(x.ravel()[:1].sum()),
        lambda: numpy.zeros((0,) + x.shape[1:], x.dtype), lambda: numpy.zeros((0, 0), x.dtype),
        lambda: numpy.full(x.shape, numpy.nan if x.dtype.kind == 'f' else -5).astype(x.dtype),
        lambda: numpy.full(x.shape, 1e30 if x.dtype.kind == 'f' else 99).astype(x.dtype),
        lambda: x.T, lambda: chainer.Variable(x), lambda: x[..., ::-1],
        lambda: numpy.ones(draw(st.lists(st.integers(0, 4), max_size=5)), x.dtype),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return options[draw(st.integers(0, len(options) - 1))]()


def _hostile(draw: Any, valid: Any) -> Any:
    """A replacement for an argument whose valid value is ``valid``."""
    kind = role(valid)
    if kind == 'array':
        return _hostile_array(draw, valid)
    if kind == 'arrays':
        options = [lambda: [], lambda: None, lambda: 'ab', lambda: list(valid[:1]),
                   lambda: tuple(valid), lambda: [v.tolist() for v in valid],
                   lambda: [*valid[:-1], _hostile_array(draw, valid[-1])],
                   lambda: [*valid, numpy.asarray(valid[0])[None]]]
        return options[draw(st.integers(0, len(options) - 1))]()
    pools = {'int': _INTS, 'real': _REALS, 'str': _STRS, 'bool': _BOOLS,
             'callable': _CALLABLES}
    if kind == 'ints':
        n = len(valid)
        pool = [(), (0,) * n, (-1,) * n, (1.5,) * max(n, 1), (2**63,) * max(n, 1),
                (2**100,), None, 'ab', list(valid), (*valid, 1), (1,) * 40, 3]
        return draw(st.sampled_from(pool))
    return draw(st.sampled_from(pools.get(kind, _ANY)))


def _optional_value(draw: Any, default: Any) -> Any:
    """A value for an optional parameter that the base call leaves out."""
    if default is None:
        return draw(st.sampled_from(_ANY))
    return _hostile(draw, default)


def _names(func: Any, kwargs: dict[str, Any]) -> set[str]:
    names = set(inspect.signature(func).parameters) | set(kwargs)
    return {n for n in names if n}


def _names_argument(message: str, names: set[str]) -> bool:
    return any(re.search(rf'(?<![\w.]){re.escape(n)}(?!\w)', message) for n in names)


def _check_result(result: Any) -> None:
    """Outputs are Variables (or arrays, lists, tuples of them) of a numeric dtype."""
    items = result if isinstance(result, (tuple, list)) else (result,)
    for y in items:
        if isinstance(y, (tuple, list)):
            _check_result(y)
            continue
        data = y.array if isinstance(y, chainer.Variable) else y
        kind = getattr(data, 'dtype', numpy.dtype('f')).kind
        assert kind not in 'OSUV', f'a result of dtype {data.dtype}'


def run_call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """Call ``F.<name>``; return the outcome; fail the test on a property violation."""
    func = getattr(F, name)
    call = f'F.{name}(*{args!r:.300}, **{kwargs!r:.200})'
    try:
        with warnings.catch_warnings(), numpy.errstate(all='ignore'):
            warnings.simplefilter('ignore')
            with _time_limit(TIME_LIMIT):
                result = func(*args, **kwargs)
    except CallTimeout:
        OUTCOMES['timeout'] += 1
        pytest.fail(f'{call} ran longer than {TIME_LIMIT} s')
    except ALLOWED as e:
        outcome = type(e).__name__
        for base in ALLOWED:
            if isinstance(e, base):
                outcome = base.__name__
                break
        # an InvalidType names the argument in the guard's note (its str is v7's text)
        text = f'{e}\n{getattr(e, "_note", "")}'
        if not _names_argument(text, _names(func, kwargs)):
            OUTCOMES['unnamed'] += 1
            pytest.fail(f'{call} raised {type(e).__name__} naming no argument: {e}')
        OUTCOMES[outcome] += 1
        return outcome
    except RuntimeError as e:
        if 'is not available' not in str(e):
            OUTCOMES[type(e).__name__] += 1
            pytest.fail(f'{call} raised {type(e).__name__}: {e}')
        # a device this machine lacks (F.copy(x, 0) without CUDA, a ChainerX spec)
        OUTCOMES['device not available'] += 1
        return 'device not available'
    except Exception as e:
        OUTCOMES[type(e).__name__] += 1
        pytest.fail(f'{call} raised {type(e).__name__}: {e}')
    _check_result(result)
    OUTCOMES['success'] += 1
    return 'success'


@st.composite
def fuzzed_call(draw: Any, name: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A call of ``F.<name>`` with up to two arguments made hostile."""
    base_args, base_kwargs = base_call(name)
    args, kwargs = list(base_args), dict(base_kwargs)
    params = inspect.signature(getattr(F, name)).parameters
    named = [p for p in params.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    bound = {p.name for p in named[:len(args)]} | set(kwargs)
    left_out = [p for p in named if p.name not in bound and p.default is not p.empty]
    slots = [('arg', i) for i in range(len(args))] + [('kw', k) for k in kwargs]
    slots += [('opt', p.name) for p in left_out]
    if not slots:
        return tuple(args), kwargs
    for _ in range(draw(st.integers(0, 2))):
        where, key = draw(st.sampled_from(slots))
        if where == 'arg':
            args[key] = _hostile(draw, base_args[key])
        elif where == 'kw':
            kwargs[key] = _hostile(draw, base_kwargs[key])
        else:
            kwargs[key] = _optional_value(draw, params[key].default)
    return tuple(args), kwargs


def test_every_function_has_a_valid_call() -> None:
    """The base call of every public function succeeds (so fuzzing starts from valid)."""
    assert len(FUNCTIONS) > 200
    for name in FUNCTIONS:
        args, kwargs = base_call(name)
        assert run_call(name, args, kwargs) == 'success', name


@pytest.mark.parametrize('name', FUNCTIONS)
def test_fuzz(name: str) -> None:
    """Hostile and borderline arguments: a clean result or a clean, named error."""

    @SETTINGS
    @hypothesis.given(fuzzed_call(name))
    def check(call: tuple[tuple[Any, ...], dict[str, Any]]) -> None:
        run_call(name, *call)

    check()
