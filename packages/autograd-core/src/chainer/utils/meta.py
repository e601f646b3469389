"""Final methods: subclasses must not override them."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

_MARK = '__chainer_final__'


def final(*args: Any, **kwargs: Any) -> Any:
    """Decorator declaring a method final (use in a class based on :func:`enable_final`).

    ``@final`` or ``@final(action=TypeError)``: overriding the method in a
    subclass raises ``action``; a Warning subclass as ``action`` gives that
    warning instead.
    """
    action = kwargs.pop('action', TypeError)
    if kwargs:
        raise TypeError(f'final got unexpected keyword arguments {sorted(kwargs)}')

    def mark(f: Callable[..., Any]) -> Callable[..., Any]:
        setattr(f, _MARK, action)
        return f

    if len(args) == 1 and callable(args[0]):
        return mark(args[0])
    if args:
        raise TypeError('final takes the method, or only the keyword argument action')
    return mark


def enable_final(base: type | tuple[type, ...] = (),
                 meta_base: type | tuple[type, ...] = ()) -> type:
    """A base class whose subclasses cannot override the methods marked :func:`final`.

    Args:
        base: base class(es) of the returned class.
        meta_base: base metaclass(es) of its metaclass (give the metaclasses of
            ``base`` here to avoid a metaclass conflict).
    """
    bases = base if isinstance(base, tuple) else (base,)
    metas = meta_base if isinstance(meta_base, tuple) else (meta_base,)
    if not any(issubclass(m, type) for m in metas):
        metas = (*metas, type)

    def init(cls: type, name: str, parents: tuple[type, ...], namespace: dict[str, Any]
             ) -> None:
        super(meta, cls).__init__(name, parents, namespace)
        for attr in namespace:
            for parent in cls.__mro__[1:]:
                previous = parent.__dict__.get(attr)
                if previous is None:
                    continue
                action = getattr(previous, _MARK, None)
                if action is not None:
                    message = (f'{name}.{attr} overrides the final method '
                               f'{parent.__name__}.{attr}')
                    if issubclass(action, Warning):
                        warnings.warn(message, action, stacklevel=3)
                    else:
                        raise action(message)
                break

    # Any: a metaclass built at run time on meta_base, whose __init__ mypy cannot know
    meta: Any = type('_FinalMeta', metas, {'__init__': init})
    return meta('_FinalBase', bases or (object,), {'__module__': __name__})
