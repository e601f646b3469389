"""Keyword-argument helpers for functions with v7's keyword-only options."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import FrameType


def check_unexpected_kwargs(kwargs: dict[str, Any], **unexpected: str) -> None:
    """Raise ``ValueError`` with the given message for each removed argument passed.

    Args:
        kwargs: the keyword arguments received.
        **unexpected: argument name -> message explaining its removal.
    """
    for key, message in unexpected.items():
        if key in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs: dict[str, Any], *name_and_values: tuple[str, Any],
                 **unexpected: str) -> tuple[Any, ...]:
    """Pop the named arguments (with defaults) from ``kwargs`` and check the rest.

    Args:
        kwargs: the keyword arguments received; consumed in place.
        *name_and_values: ``(name, default)`` pairs, returned in this order.
        **unexpected: removed arguments and their messages (see
            :func:`check_unexpected_kwargs`).

    Returns:
        The values (or defaults) of the named arguments.

    Raises:
        ValueError: for a removed argument.
        TypeError: for any other argument left.
    """
    values = tuple(kwargs.pop(name, default) for name, default in name_and_values)
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        assert_kwargs_empty(kwargs)
    return values


def assert_kwargs_empty(kwargs: dict[str, Any]) -> None:
    """Raise ``TypeError`` naming the caller and the arguments if ``kwargs`` is not empty.

    The message reads ``f() got unexpected keyword argument(s) 'a', 'b'``,
    ``f`` being the function that called the helpers of this module.
    """
    if kwargs:
        names = ', '.join(repr(k) for k in sorted(kwargs))
        raise TypeError(f'{_caller_name()}() got unexpected keyword argument(s) {names}')


def _caller_name() -> str:
    """The name of the innermost function on the stack outside this module."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_globals.get('__name__') == __name__:
        frame = frame.f_back
    return frame.f_code.co_name if frame is not None else '<unknown>'

