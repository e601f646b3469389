"""Small helpers for tests: warnings, requirements, patching, running a module."""

from __future__ import annotations

import contextlib
import importlib.metadata
import pkgutil
import re
import sys
import unittest
import warnings
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

__all__ = ['assert_warns', 'patch', 'run_module', 'with_requires', 'without_requires']


@contextlib.contextmanager
def assert_warns(expected: type[Warning]) -> Iterator[list[warnings.WarningMessage]]:
    """Context manager asserting that its block emits a warning of category ``expected``.

    Yields the list of warnings recorded so far (filled when the block ends).

    Raises:
        AssertionError: when no such warning is emitted.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield caught
    if not any(issubclass(w.category, expected) for w in caught):
        seen = ', '.join(w.category.__name__ for w in caught) or 'none'
        raise AssertionError(f'{expected.__name__} not emitted (warnings seen: {seen})')


_REQ = re.compile(r'^\s*([A-Za-z0-9_.\-]+)\s*(.*)$')


def _satisfied(requirement: str) -> bool:
    match = _REQ.match(requirement)
    if match is None:
        raise ValueError(f'cannot parse the requirement {requirement!r}')
    name, spec = match.group(1), match.group(2).strip()
    try:
        version = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    if not spec:
        return True
    try:
        from packaging.specifiers import SpecifierSet
        from packaging.version import Version
    except ImportError:  # packaging comes with pytest; without it, check presence only
        return True
    return Version(version) in SpecifierSet(spec)


def with_requires(*requirements: str) -> Callable[[Any], Any]:
    """Skip the test (class or function) unless every requirement is installed.

    Args:
        *requirements: pip-style requirements such as ``'numpy>=1.26'``.
    """
    ok = all(_satisfied(r) for r in requirements)
    return unittest.skipUnless(ok, f'requires {", ".join(requirements)}')


def without_requires(*requirements: str) -> Callable[[Any], Any]:
    """Run the test only when at least one requirement is not satisfied."""
    ok = all(_satisfied(r) for r in requirements)
    return unittest.skipIf(ok, f'requires that {", ".join(requirements)} is not installed')


def patch(target: str, *args: Any, **kwargs: Any) -> Any:
    """``unittest.mock.patch`` that wraps the target, with ``autospec=True`` by default.

    As in v7, calls go through to ``wraps`` (the patched object itself unless
    given), so the code under test keeps working while the mock records the
    calls; the autospec keeps the target's signature.
    """
    kwargs.setdefault('autospec', True)
    if not args and 'new' not in kwargs and 'side_effect' not in kwargs:
        wraps = kwargs.pop('wraps', None)
        if wraps is None:
            wraps = pkgutil.resolve_name(target)
        # An autospecced mock ignores ``wraps`` for return values: pass it as side effect.
        kwargs['side_effect' if kwargs['autospec'] else 'wraps'] = wraps
    return mock.patch(target, *args, **kwargs)


def run_module(name: str, file: str) -> None:
    """Run the tests of ``file`` with pytest when ``name`` is ``'__main__'``."""
    if name == '__main__':
        import pytest

        sys.exit(pytest.main([file, '-v']))
