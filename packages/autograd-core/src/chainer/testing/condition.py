"""Decorators running a test several times with a success criterion."""

from __future__ import annotations

import functools
import sys
import traceback
import unittest
from collections.abc import Callable
from typing import Any

from chainer.utils.error import ArgumentValueError

__all__ = ['QuietTestRunner', 'repeat', 'repeat_with_success_at_least', 'retry']


class _NeverRaised(Exception):
    """Stands for pytest's skip exception where pytest is not loaded."""


def _pytest_skip_class() -> type[BaseException]:
    """pytest's ``Skipped`` exception class, when pytest is loaded (not imported here)."""
    outcomes = sys.modules.get('_pytest.outcomes')
    return getattr(outcomes, 'Skipped', _NeverRaised)


def _reset(instance: Any, method: Callable[..., Any]) -> None:
    """Run the fixture teardown and setup of ``instance`` between two trials."""
    if isinstance(instance, unittest.TestCase):
        instance.tearDown()
        instance.setUp()
    else:
        teardown = getattr(instance, 'teardown_method', None)
        setup = getattr(instance, 'setup_method', None)
        if teardown is not None:
            teardown(method)
        if setup is not None:
            setup(method)


def repeat_with_success_at_least(times: int, min_success: int) -> Callable[[Any], Any]:
    """Run the test up to ``times`` times; pass once it has succeeded ``min_success`` times.

    Trials stop as soon as the outcome is decided. Between trials of a test
    method the instance's ``tearDown``/``setUp`` (or pytest's
    ``teardown_method``/``setup_method``) run again. A skip is not a failure:
    it propagates at once.

    Args:
        times: the largest number of trials.
        min_success: the successes needed (``0 <= min_success <= times``).

    Raises:
        chainer.utils.error.ArgumentValueError: (a ValueError, also an
            AssertionError as in v7) when ``min_success`` is out of range.
    """
    if times < 0 or min_success < 0 or min_success > times:
        raise ArgumentValueError(f'need 0 <= min_success <= times, got times={times}, '
                         f'min_success={min_success}')

    def decorator(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            instance = args[0] if args and hasattr(type(args[0]), f.__name__) else None
            successes = 0
            failures: list[str] = []
            trials = 0
            for trial in range(times):
                if successes >= min_success:
                    break
                if successes + (times - trial) < min_success:
                    break
                if trial > 0 and instance is not None:
                    _reset(instance, f)
                trials += 1
                try:
                    f(*args, **kwargs)
                except unittest.SkipTest:
                    raise
                except _pytest_skip_class() as e:
                    # A pytest.skip() is reported as unittest's SkipTest (as Chainer v7 does).
                    raise unittest.SkipTest(getattr(e, 'msg', None) or str(e)) from e
                except Exception:
                    failures.append(traceback.format_exc())
                else:
                    successes += 1
            if successes < min_success:
                detail = failures[0] if failures else ''
                raise AssertionError(
                    f'{f.__qualname__} succeeded {successes} time(s) in {trials} trial(s); '
                    f'{min_success} success(es) in at most {times} trials are needed. '
                    f'The first error message:\n{detail}')
        return wrapper

    return decorator


def repeat(times: int) -> Callable[[Any], Any]:
    """The test must succeed ``times`` times in a row."""
    return repeat_with_success_at_least(times, times)


def retry(times: int) -> Callable[[Any], Any]:
    """The test passes when it succeeds at least once in ``times`` trials."""
    return repeat_with_success_at_least(times, 1)


class QuietTestRunner:
    """Runs a ``unittest`` suite without printing anything and returns its result."""

    def run(self, suite: unittest.TestSuite | unittest.TestCase) -> unittest.TestResult:
        """Run ``suite`` (a test or suite) and return the ``unittest.TestResult``."""
        result = unittest.TestResult()
        suite(result)
        return result
