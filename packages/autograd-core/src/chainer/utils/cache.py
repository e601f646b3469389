"""Caching of computed Variables (``chainer.utils.cache``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import chainer


class _CachedProperty(property):
    """A property that also carries the name and docstring of its function (as v7's)."""

    def __init__(self, getter: Callable[[Any], Any]) -> None:
        super().__init__(getter)
        self.__doc__ = getter.__doc__
        self.__name__ = getter.__name__
        self.__qualname__ = getter.__qualname__


def cached_property(func: Callable[[Any], Any]) -> property:
    """A read-only property computed once per instance and per ``enable_backprop`` mode.

    Reading it again returns the stored result, so a function of Chainer is applied
    once however often the value is used. Results made without backprop (no graph)
    and with it are kept apart: the value read under ``no_backprop_mode`` is never
    returned where a graph is needed, and the other way round.

    Args:
        func: the method computing the value from ``self``.

    Returns:
        A property whose ``__name__`` is that of ``func``.
    """
    attr = f'_cached_property_{func.__name__}'

    @functools.wraps(func)
    def getter(self: Any) -> Any:
        mode = bool(chainer.config.enable_backprop)
        cache = self.__dict__.setdefault(attr, {})
        if mode not in cache:
            cache[mode] = func(self)
        return cache[mode]

    return _CachedProperty(getter)
