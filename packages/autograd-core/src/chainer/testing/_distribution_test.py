"""Chainer v7's module of the distribution test base (``chainer.testing._distribution_test``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chainer.testing.distribution_test import distribution_unittest

__all__ = ['distribution_unittest', 'skip_not_in_test_target']


def skip_not_in_test_target(test_target: str
                            ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a test method: it is skipped unless ``test_target`` is in ``self.test_targets``."""
    def decorator(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            if test_target not in self.test_targets:
                self.skipTest(f'{test_target!r} is not in test_targets')
            return f(self, *args, **kwargs)
        return run
    return decorator
