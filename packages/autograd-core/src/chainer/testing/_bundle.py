"""Chainer v7's helper building parameterizing class decorators (``make_decorator``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from chainer.testing.parameterized import generate_classes


class _TestCaseTuple(NamedTuple):
    """One generated test case: its class name, its extra members and a method wrapper."""

    klass: str
    members: Mapping[str, Any]
    method_generator: Callable[[Callable[..., Any]], Callable[..., Any]] | None


def _wrapped_tests(method_generator: Callable[[Callable[..., Any]], Callable[..., Any]]
                   ) -> Callable[[type], dict[str, Any]]:
    def members(source: type) -> dict[str, Any]:
        return {name: method_generator(getattr(source, name))
                for name in dir(source)
                if name.startswith('test') and callable(getattr(source, name))}
    return members


def make_decorator(test_case_generator: Callable[[type], Iterable[Any]]
                   ) -> Callable[[type], type]:
    """Make a class decorator that replaces a test class by the classes it generates.

    Args:
        test_case_generator: called with the decorated class, yields
            ``(class name, members, method_generator)``: the name of a generated
            subclass (its suffix after the decorated class's name is kept), the class
            attributes it gets, and None or a function wrapping each ``test*`` method.

    Returns:
        The decorator; it stacks with :func:`~chainer.testing.parameterize` and the
        other generating decorators (the generated classes go to the class's module).
    """
    def decorator(cls: type) -> type:
        variants = []
        for case in test_case_generator(cls):
            name, members, method_generator = _TestCaseTuple(*case)
            suffix = name[len(cls.__name__):] if name.startswith(cls.__name__) else '_' + name
            extra = None if method_generator is None else _wrapped_tests(method_generator)
            variants.append((suffix, dict(members), extra))
        return generate_classes(cls, variants)
    return decorator
