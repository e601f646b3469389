"""Fixed random numbers in tests."""

from __future__ import annotations

import functools
import os
import random as _pyrandom
import sys
from collections.abc import Callable
from typing import Any

import numpy

from chainer.testing import _bundle

__all__ = ['do_setup', 'do_teardown', 'fix_random', 'generate_seed', 'get_random_state']

_SEED_ENV = 'CHAINER_TEST_RANDOM_SEED'
_STATE_ATTR = '_chainer_testing_saved_random_state'


def _base_seed() -> int:
    value = os.environ.get(_SEED_ENV, '0')
    try:
        return int(value)
    except ValueError:
        raise ValueError(f'{_SEED_ENV}={value!r} is not an integer') from None


def get_random_state() -> numpy.random.RandomState:
    """NumPy's global random state: the one :func:`fix_random` seeds and restores."""
    return numpy.random.mtrand._rand


def generate_seed() -> int:
    """A new seed drawn from NumPy's global random state (reproducible under fix_random)."""
    return int(get_random_state().randint(0, 2 ** 31 - 1))


def _cupy() -> Any:
    # Only touch CuPy when the test process has already imported it.
    cupy = sys.modules.get('cupy')
    if cupy is None:
        return None
    try:
        from chainer.backends import cuda
    except ImportError:
        return None
    return cupy if cuda.available else None


def _save_and_seed(seed: int) -> tuple[Any, Any]:
    saved = (numpy.random.get_state(), _pyrandom.getstate())
    numpy.random.seed(seed)
    _pyrandom.seed(seed)
    cupy = _cupy()
    if cupy is not None:
        cupy.random.seed(seed)
    return saved


def _restore(saved: tuple[Any, Any]) -> None:
    numpy.random.set_state(saved[0])
    _pyrandom.setstate(saved[1])
    cupy = _cupy()
    if cupy is not None:
        # CuPy's generator state cannot be saved; reseed it from the restored NumPy state.
        cupy.random.seed(int(numpy.random.randint(0, 2 ** 31 - 1)))


def fix_random(*, setup_method: str = 'setUp',
               teardown_method: str = 'tearDown') -> Callable[[Any], Any]:
    """Decorator seeding the random generators for a test and restoring them after it.

    NumPy's global generator, Python's :mod:`random` and (when CUDA is in use)
    CuPy's are seeded with ``$CHAINER_TEST_RANDOM_SEED`` (default 0), so each
    test sees the same random numbers whatever ran before it.

    On a test class (or each class of a bundle that
    :func:`~chainer.testing.parameterize` returns), the seeding happens before
    ``setup_method`` and the previous state comes back after ``teardown_method`` (use
    ``setup_method='setup_method', teardown_method='teardown_method'`` for
    pytest-style classes); on a test function, around the call. Do not put it
    inside ``condition.retry`` or ``condition.repeat``.
    """
    def decorator(obj: Any) -> Any:
        if isinstance(obj, type):
            return _fix_class(obj, setup_method, teardown_method)
        if isinstance(obj, _bundle._ParameterizedTestCaseBundle):
            for cls, _, _ in obj.cases:
                _fix_class(cls, setup_method, teardown_method)
            return obj
        if callable(obj):
            return _fix_function(obj)
        raise TypeError(f'fix_random decorates test classes or functions, not '
                        f'{type(obj).__name__}')
    return decorator


def _fix_function(f: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        saved = _save_and_seed(_base_seed())
        try:
            return f(*args, **kwargs)
        finally:
            _restore(saved)
    return wrapper


def _fix_class(cls: type, setup_name: str, teardown_name: str) -> type:
    orig_setup = getattr(cls, setup_name, None)
    orig_teardown = getattr(cls, teardown_name, None)

    def setup(self: Any, *args: Any, **kwargs: Any) -> None:
        setattr(self, _STATE_ATTR, _save_and_seed(_base_seed()))
        if orig_setup is not None:
            orig_setup(self, *args, **kwargs)

    def teardown(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            if orig_teardown is not None:
                orig_teardown(self, *args, **kwargs)
        finally:
            saved = self.__dict__.pop(_STATE_ATTR, None)
            if saved is not None:
                _restore(saved)

    setup.__name__ = setup_name
    teardown.__name__ = teardown_name
    setattr(cls, setup_name, setup)
    setattr(cls, teardown_name, teardown)
    return cls


# States saved by do_setup, restored by do_teardown (a stack: calls may nest).
_saved_states: list[tuple[Any, Any]] = []


def do_setup(deterministic: bool = True) -> None:
    """Seed NumPy's, Python's (and CuPy's, when in use) random generators, saving them.

    Args:
        deterministic: seed with ``$CHAINER_TEST_RANDOM_SEED`` (default 0); when False,
            with a seed drawn from the operating system.
    """
    seed = _base_seed() if deterministic else int.from_bytes(os.urandom(4), 'little') >> 1
    _saved_states.append(_save_and_seed(seed))


def do_teardown() -> None:
    """Restore the random states saved by the matching :func:`do_setup`.

    Raises:
        RuntimeError: without a pending :func:`do_setup`.
    """
    if not _saved_states:
        raise RuntimeError('do_teardown called without a matching do_setup')
    _restore(_saved_states.pop())
