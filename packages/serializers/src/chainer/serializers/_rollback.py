"""Undo what a failed load changed in Python objects.

Before a load runs ``obj.serialize(deserializer)``, :func:`capture` records a shallow
copy of the state of every object reachable from ``obj``: instance ``__dict__`` and
``__slots__`` values, and the contents of lists, dicts, sets and deques. If the load
fails, :meth:`Capture.restore` puts back every record that changed, in place, so object
identities are kept. Arrays are not copied: loaders never write into an existing array
before every entry has been checked (see ``_transaction``).

Traversal stops at arrays, scalars and strings, modules, classes, functions and
methods, weak references, file objects, and objects of concurrency, I/O and mocking
libraries (their state is not the target's and may change under our feet). The
elements of sequences longer than :data:`MAX_ELEMENTS` are treated as data and not
visited (the container itself is still recorded).
"""

from __future__ import annotations

import collections
import functools
import io
import types
import weakref
from typing import Any

import numpy

MAX_ELEMENTS = 10_000
"""Containers with more elements are recorded but their elements are not visited."""

MAX_OBJECTS = 1_000_000
"""Safety bound on the number of objects visited by one capture."""

_UNSET = object()

_LEAVES = (str, bytes, bytearray, int, float, complex, bool, type(None), range, slice,
           numpy.ndarray, numpy.generic, numpy.dtype)
_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType, types.FrameType, types.GeneratorType,
           weakref.ref, weakref.ProxyType, io.IOBase, memoryview)
_OPAQUE_MODULES = ('threading', 'multiprocessing', 'queue', 'concurrent', 'asyncio',
                   'socket', 'ssl', 'selectors', 'subprocess', 'logging', 'io', '_io',
                   'zipfile', 'tempfile', 'functools', 'unittest.mock', 'mock', 'numpy',
                   'cupy', 'cupyx', 'h5py')


def _is_opaque(obj: Any) -> bool:
    if isinstance(obj, _LEAVES + _OPAQUE):
        return True
    module = getattr(type(obj), '__module__', '') or ''
    root = module.partition('.')[0]
    return root in _OPAQUE_MODULES or module in _OPAQUE_MODULES


@functools.lru_cache(maxsize=1024)
def _slot_descriptors(cls: type) -> tuple[Any, ...]:
    """The member descriptors of every ``__slots__`` entry of ``cls`` and its bases."""
    found = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get('__slots__')
        if slots is None:
            continue
        if isinstance(slots, str):
            slots = (slots,)
        for name in slots:
            if name in ('__dict__', '__weakref__'):
                continue
            if name.startswith('__') and not name.endswith('__'):
                name = f'_{klass.__name__.lstrip("_")}{name}'
            descriptor = klass.__dict__.get(name)
            if descriptor is not None and hasattr(descriptor, '__set__'):
                found.append(descriptor)
    return tuple(found)


class Capture:
    """The recorded state of an object graph (see :func:`capture`)."""

    def __init__(self) -> None:
        self._attrs: list[tuple[Any, dict[str, Any]]] = []
        self._slots: list[tuple[Any, list[tuple[Any, Any]]]] = []
        self._dicts: list[tuple[dict[Any, Any], list[tuple[Any, Any]]]] = []
        self._lists: list[tuple[Any, list[Any]]] = []
        self._sets: list[tuple[set[Any], set[Any]]] = []

    def restore(self) -> None:
        """Put back every recorded state that differs from the current one."""
        for obj, saved in self._attrs:
            current = obj.__dict__
            if not _same_items(current, saved):
                current.clear()
                current.update(saved)
        for obj, slot_values in self._slots:
            for descriptor, value in slot_values:
                now = _get_slot(descriptor, obj)
                if now is value:
                    continue
                if value is _UNSET:
                    descriptor.__delete__(obj)
                else:
                    descriptor.__set__(obj, value)
        for d, items in self._dicts:
            if len(d) != len(items) or any(
                    k is not k0 or v is not v0 for (k, v), (k0, v0) in zip(d.items(), items)):
                d.clear()
                d.update(items)
        for seq, elements in self._lists:
            if len(seq) != len(elements) or any(
                    a is not b for a, b in zip(seq, elements)):
                if isinstance(seq, collections.deque):
                    seq.clear()
                    seq.extend(elements)
                else:
                    seq[:] = elements
        for s, members in self._sets:
            if s != members:
                s.clear()
                s.update(members)


def _same_items(current: dict[str, Any], saved: dict[str, Any]) -> bool:
    return len(current) == len(saved) and all(
        current.get(key, _UNSET) is value for key, value in saved.items())


def _get_slot(descriptor: Any, obj: Any) -> Any:
    try:
        return descriptor.__get__(obj, type(obj))
    except Exception:
        return _UNSET


def capture(root: Any) -> Capture:
    """Record the state of ``root`` and of every object reachable from it.

    Args:
        root: the object about to be loaded into.

    Returns:
        A :class:`Capture` whose :meth:`~Capture.restore` undoes later changes.
    """
    record = Capture()
    seen: set[int] = set()
    stack = [root]
    while stack and len(seen) < MAX_OBJECTS:
        obj = stack.pop()
        if id(obj) in seen or _is_opaque(obj):
            continue
        seen.add(id(obj))
        children: Any = ()
        if isinstance(obj, dict):
            items = list(obj.items())
            record._dicts.append((obj, items))
            if len(items) <= MAX_ELEMENTS:
                children = [v for _, v in items] + [k for k, _ in items]
        elif isinstance(obj, (list, collections.deque)):
            elements = list(obj)
            record._lists.append((obj, elements))
            if len(elements) <= MAX_ELEMENTS:
                children = elements
        elif isinstance(obj, set):
            members = set(obj)
            record._sets.append((obj, members))
            if len(members) <= MAX_ELEMENTS:
                children = members
        elif isinstance(obj, (tuple, frozenset)) and len(obj) <= MAX_ELEMENTS:
            children = obj
        stack.extend(children)
        try:  # bypass __getattr__ and __getattribute__ overrides
            attrs = object.__getattribute__(obj, '__dict__')
        except Exception:
            attrs = None
        if isinstance(attrs, dict):
            saved = dict(attrs)
            record._attrs.append((obj, saved))
            stack.extend(saved.values())
        cls: type = type(obj)
        descriptors = _slot_descriptors(cls)
        if descriptors:
            values = [(d, _get_slot(d, obj)) for d in descriptors]
            record._slots.append((obj, values))
            stack.extend(v for _, v in values if v is not _UNSET)
    return record
