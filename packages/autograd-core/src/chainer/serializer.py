"""The abstract serialization protocol used by links, optimizers and trainers.

Concrete serializers (NPZ, HDF5) live in the chainer-serializers package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class AbstractSerializer:
    """A hierarchical key-value visitor.

    ``serializer['child']`` returns the serializer of a child group;
    ``serializer('key', value)`` saves or loads ``value``.
    """

    def __getitem__(self, key: str) -> AbstractSerializer:
        raise NotImplementedError

    def __call__(self, key: str, value: Any) -> Any:
        raise NotImplementedError


class Serializable(Protocol):
    """What serializers save and load: an object with ``serialize(serializer)``.

    A :class:`~chainer.Link`, an :class:`~chainer.Optimizer`, a trainer, an updater, an
    iterator or any object of yours with that method.
    """

    def serialize(self, serializer: AbstractSerializer, /) -> None:
        """Save or load the state of the object through ``serializer``."""
        ...


class Serializer(AbstractSerializer):
    """Base class of serializers that save values."""

    def save(self, obj: Serializable | Mapping[str, Any]) -> None:
        """Save ``obj`` (anything with a ``serialize(serializer)`` method).

        A plain mapping (a dict of arrays, say) is saved entry by entry, as v7 does.
        """
        if isinstance(obj, Mapping) and not hasattr(obj, 'serialize'):
            for key, value in obj.items():
                self(key, value)
            return
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base class of serializers that load values."""

    def load(self, obj: Serializable) -> None:
        """Load into ``obj`` (anything with a ``serialize(serializer)`` method)."""
        obj.serialize(self)

    def describe(self, key: str) -> str:
        """Name the entry ``key`` for an error message raised while loading it.

        Concrete deserializers give the full path of the entry and its file
        (e.g. ``"'head/b' in 'model.npz'"``); this base version gives the key.
        """
        return repr(key)
