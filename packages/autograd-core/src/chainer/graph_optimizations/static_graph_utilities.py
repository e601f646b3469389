"""Helpers of v7's static graphs (``chainer.static_code``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ['static_code', 'static_forward_optimizations']


def static_forward_optimizations(func: Any, inputs: Any) -> None:
    """v7 called this from ``FunctionNode.apply`` while tracing a static graph.

    Graphs are not traced here (every call runs define-by-run), so there is nothing to
    optimize: it checks that ``func`` is a function node and returns None.

    Raises:
        TypeError: when ``func`` has no ``forward``.
    """
    if not callable(getattr(func, 'forward', None)):
        raise TypeError(f'static_forward_optimizations: {func!r} is not a function node')


def static_code(*dec_args: Any, **dec_kwargs: Any) -> Any:
    """Mark code that v7 ran outside a traced static graph; here it always runs.

    Usable bare (``@static_code``) or with options; graphs are always built
    define-by-run, so the decorated function is returned unchanged.
    """
    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return dec_args[0]

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        return func

    return decorator
