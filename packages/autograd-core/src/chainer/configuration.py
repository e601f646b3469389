"""Configuration: thread-local values over global defaults.

``chainer.config`` reads a key from the current thread's overrides first and
falls back to ``chainer.global_config``. Lookups are plain attribute reads: the
global values are mirrored as class attributes of the thread-local class, so the
hot path pays no Python-level ``__getattr__``.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any, TextIO


class GlobalConfig:
    """The global default configuration (``chainer.global_config``)."""

    if TYPE_CHECKING:
        _mirrors: list[type]  # the local config classes that follow the global values

    def __init__(self) -> None:
        object.__setattr__(self, '_mirrors', [])

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        for cls in self._mirrors:
            setattr(cls, name, value)

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        for cls in self._mirrors:
            delattr(cls, name)

    def _items(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if not k.startswith('_mirrors')}

    def show(self, file: TextIO = sys.stdout) -> None:
        """Print every key and value, one per line, sorted by key."""
        _show(self._items(), file)


def _show(items: dict[str, Any], file: TextIO) -> None:
    keys = sorted(items)
    width = max((len(k) for k in keys), default=0)
    for key in keys:
        file.write(f'{key:<{width}} {items[key]}\n')


class LocalConfig(threading.local):
    """Thread-local configuration falling back to a :class:`GlobalConfig`.

    Args:
        global_config: the configuration whose values are used where this
            thread has set none.
    """

    def __new__(cls, global_config: GlobalConfig) -> LocalConfig:
        if '_global' in cls.__dict__:
            return super().__new__(cls)
        # A class per instance, so global values can live as its class attributes.
        sub = type(cls.__name__, (cls,), {'_global': global_config})
        sub.__module__ = cls.__module__
        for key, value in global_config._items().items():
            setattr(sub, key, value)
        global_config._mirrors.append(sub)
        return super().__new__(sub)

    def __init__(self, global_config: GlobalConfig | None = None) -> None:
        # threading.local calls __init__ again in every new thread (without arguments).
        pass

    def __reduce__(self) -> Any:
        return (LocalConfig, (self._global,))

    def _items(self) -> dict[str, Any]:
        items = self._global._items()
        items.update(self.__dict__)
        return items

    def show(self, file: TextIO = sys.stdout) -> None:
        """Print every effective key and value of this thread, sorted by key."""
        _show(self._items(), file)


_MISSING = object()


class using_config:
    """Context manager that sets a configuration value temporarily.

    Args:
        name: the key.
        value: its value inside the ``with`` block.
        config: the :class:`LocalConfig` to change (``chainer.config``).

    Example:
        >>> import chainer
        >>> chainer.config.train
        True
        >>> with chainer.using_config('train', False):
        ...     print(chainer.config.train)
        False
        >>> chainer.config.train
        True
    """

    __slots__ = ('name', 'value', 'config', '_old')

    def __init__(self, name: str, value: Any, config: LocalConfig | None = None) -> None:
        self.name = name
        self.value = value
        self.config = _default_local if config is None else config

    def __enter__(self) -> None:
        d = self.config.__dict__
        self._old = d.get(self.name, _MISSING)
        d[self.name] = self.value

    def __exit__(self, *args: Any) -> None:
        if self._old is _MISSING:
            self.config.__dict__.pop(self.name, None)
        else:
            self.config.__dict__[self.name] = self._old


global_config = GlobalConfig()
config = LocalConfig(global_config)
_default_local = config
