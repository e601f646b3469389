"""Generated test classes: the bundle that generating decorators return, and how they build it.

:func:`~chainer.testing.parameterize`, :func:`~chainer.testing.inject_backend_tests` and the
decorators made with :func:`make_decorator` replace a test class by generated subclasses,
one per variant, which they put in the class's module. As in Chainer v7, they return a
:class:`_ParameterizedTestCaseBundle` listing the generated classes; the decorated name is
bound to it, and neither pytest nor unittest collects it. The decorators stack: each
expands every class of the bundle it is given.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

__all__ = ['make_decorator']

_TEMPLATE_REASON = ('parameterized template class: its generated classes '
                    '(<name>_param_<i>_{...}) run the tests')

# One generated class: (class, name of the module holding it, its name there), or
# (class, None, None) for a class in no module (generated from a class defined in a
# function, or kept for an outer decorator to expand).
Case = tuple[type, str | None, str | None]


class _ParameterizedTestCaseBundle:
    """The test classes that stacked generating decorators made from one class.

    Args:
        cases: ``(class, module name, name)`` for each generated class placed in a
            module under that name; ``(class, None, None)`` for one in no module.
    """

    def __init__(self, cases: Iterable[Case]) -> None:
        self.cases: list[Case] = list(cases)

    def __repr__(self) -> str:
        names = ', '.join(c.__name__ for c, _, _ in self.cases)
        return f'<_ParameterizedTestCaseBundle of {len(self.cases)} classes: {names}>'


def as_bundle(target: Any, decorator: str) -> _ParameterizedTestCaseBundle:
    """``target`` if it is a bundle, else a class as a bundle of one (not in a module yet).

    Raises:
        TypeError: ``target`` is neither (``decorator`` names the decorator in the message).
    """
    if isinstance(target, _ParameterizedTestCaseBundle):
        return target
    if isinstance(target, type):
        return _ParameterizedTestCaseBundle([(target, None, None)])
    raise TypeError(f'{decorator} decorates test classes only, not {type(target).__name__}')


def _module_namespace(cls: type) -> dict[str, Any] | None:
    """The namespace of the module defining ``cls`` (None for a class defined in a function)."""
    if '<locals>' in cls.__qualname__:
        return None
    module = sys.modules.get(cls.__module__)
    if module is not None:
        return module.__dict__
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals.get('__name__') == cls.__module__:
            return frame.f_globals
        frame = frame.f_back
    return None


def hide(cls: type) -> None:
    """Mark ``cls`` so that neither pytest nor unittest runs its tests."""
    # the markers pytest and unittest read; any class may get them, hence setattr
    for name, value in (('__test__', False), ('__unittest_skip__', True),
                        ('__unittest_skip_why__', _TEMPLATE_REASON)):
        setattr(cls, name, value)


def _class_attribute(value: Any) -> Any:
    """A parameter value as a class attribute: plain functions must not bind as methods."""
    if isinstance(value, types.FunctionType):
        return staticmethod(value)
    return value


def _qualname(source: type, name: str) -> str:
    # a class generated from one defined in a function keeps the function in its path
    if '<locals>' in source.__qualname__:
        return source.__qualname__.rpartition('.')[0] + '.' + name
    return name


# A variant: (name suffix, class attributes, members(source) -> extra class members).
Variant = tuple[str, Mapping[str, Any], Callable[[type], Mapping[str, Any]] | None]


def generate_classes(target: type | _ParameterizedTestCaseBundle, variants: Sequence[Variant]
                     ) -> _ParameterizedTestCaseBundle:
    """Replace each class of ``target`` by one generated subclass per variant.

    Each variant gives a name suffix, class attributes (the parameters) and optionally a
    function of the source class returning more members (e.g. test methods wrapped for a
    backend). The generated classes go to the module of their source, which leaves it;
    sources are hidden from pytest and unittest. Stacked decorators give the product,
    the inner decorator's suffix first.

    Returns:
        The bundle of the generated classes.
    """
    cases: list[Case] = []
    for source, _, name in as_bundle(target, 'a generating decorator').cases:
        namespace = _module_namespace(source)
        for suffix, attrs, members in variants:
            new_name = source.__name__ + suffix
            body = {k: _class_attribute(v) for k, v in attrs.items()}
            if members is not None:
                body.update(members(source))
            body.update({
                '__module__': source.__module__,
                '__qualname__': _qualname(source, new_name),
                '__test__': True,
                '__unittest_skip__': False,
                '_chainer_parameters': {**getattr(source, '_chainer_parameters', {}),
                                        **attrs},
            })
            if source.__doc__ is not None:
                body['__doc__'] = source.__doc__
            cls = type(source)(new_name, (source,), body)
            if namespace is None:
                cases.append((cls, None, None))
            else:
                namespace[new_name] = cls
                cases.append((cls, source.__module__, new_name))
        hide(source)
        if name is not None and namespace is not None and namespace.get(name) is source:
            del namespace[name]
    return _ParameterizedTestCaseBundle(cases)


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
                   ) -> Callable[[type | _ParameterizedTestCaseBundle],
                                 _ParameterizedTestCaseBundle]:
    """Make a class decorator that replaces a test class by the classes it generates.

    Args:
        test_case_generator: called with each class to expand, yields
            ``(class name, members, method_generator)``: the name of a generated
            subclass (its suffix after the expanded class's name is kept), the class
            attributes it gets, and None or a function wrapping each ``test*`` method.

    Returns:
        The decorator, returning a :class:`_ParameterizedTestCaseBundle`; it stacks with
        :func:`~chainer.testing.parameterize` and the other generating decorators.
    """
    def decorator(target: type | _ParameterizedTestCaseBundle
                  ) -> _ParameterizedTestCaseBundle:
        cases: list[Case] = []
        for case in as_bundle(target, 'make_decorator').cases:
            source = case[0]
            variants: list[Variant] = []
            for generated in test_case_generator(source):
                name, members, method_generator = _TestCaseTuple(*generated)
                suffix = (name[len(source.__name__):] if name.startswith(source.__name__)
                          else '_' + name)
                extra = None if method_generator is None else _wrapped_tests(method_generator)
                variants.append((suffix, dict(members), extra))
            cases += generate_classes(_ParameterizedTestCaseBundle([case]), variants).cases
        return _ParameterizedTestCaseBundle(cases)
    return decorator
