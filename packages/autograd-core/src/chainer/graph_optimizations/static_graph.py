"""The ``static_graph`` decorator of Chainer v7 (``chainer.static_graph``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ['static_graph']


def static_graph(*args: Any, **kwargs: Any) -> Any:
    """Chainer v7's static-graph decorator of a chain's ``forward``; here it runs as is.

    Usable bare (``@static_graph``) or with v7's options
    (``@static_graph(verbosity_level=1, enable_double_backprop=False, ...)``, all
    accepted and ignored): the decorated method runs define-by-run, with the same
    results; only v7's trace-and-replay optimization is not applied.

    Returns:
        The method itself (bare use), or a decorator returning it.
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        return func

    return decorator
