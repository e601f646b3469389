"""Helpers of v7's static graphs (``chainer.static_code``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ['static_code']


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
