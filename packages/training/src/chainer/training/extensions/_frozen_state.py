"""A copy of what an object saves, taken at once, to be written later by another worker.

Writers that save in a background thread or process must not read the live target
while training goes on (the file would mix two iterations). :func:`freeze` runs
``target.serialize`` once with a recording serializer that copies every value (GPU arrays
to the host); the
returned :class:`FrozenState` replays the same calls into any serializer, so
``save_npz(path, frozen)`` or ``save_hdf5(path, frozen)`` writes the state the target
had when it was frozen. A frozen state holds only arrays and plain values, so it can
also be pickled to another process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend
from chainer import serializer as serializer_module

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer

_Path = tuple[str, ...]


def _copy(value: Any) -> Any:
    if isinstance(value, (numpy.ndarray, numpy.generic)):
        return value.copy()
    if isinstance(value, chainer.get_array_types()):
        return backend.CpuDevice().send(value)  # a GPU array: copied to the host
    return value


class _Recorder(serializer_module.Serializer):
    """Serializer that records the groups it opens and copies the values it is given."""

    def __init__(self, events: list[tuple[Any, ...]], path: _Path = ()) -> None:
        self._events = events
        self._path = path
        self._children: dict[str, _Recorder] = {}

    def __getitem__(self, key: str) -> _Recorder:
        child = self._children.get(key)
        if child is None:
            child = _Recorder(self._events, self._path + (key,))
            self._children[key] = child
            self._events.append(('group', child._path))
        return child

    def __call__(self, key: str, value: Any) -> Any:
        self._events.append(('value', self._path, key, _copy(value)))
        return value


class FrozenState:
    """The recorded ``serialize`` calls of an object; replays them into a serializer.

    Build it with :func:`freeze`.
    """

    def __init__(self, events: list[tuple[Any, ...]]) -> None:
        self._events = events

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Replay the recorded groups and values into ``serializer`` (a saving one)."""
        opened: dict[_Path, Any] = {(): serializer}
        for event in self._events:
            if event[0] == 'group':
                path = event[1]
                opened[path] = opened[path[:-1]][path[-1]]
            else:
                _, path, key, value = event
                opened[path](key, value)


def freeze(target: Any) -> FrozenState:
    """Record what ``target.serialize`` saves now, with copies of every array.

    Args:
        target: an object with a ``serialize(serializer)`` method (a trainer, a link,
            an optimizer...).

    Returns:
        A :class:`FrozenState` that saves exactly that state.
    """
    events: list[tuple[Any, ...]] = []
    target.serialize(_Recorder(events))
    return FrozenState(events)
