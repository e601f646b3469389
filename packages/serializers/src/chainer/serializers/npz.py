"""NPZ serialization: save objects to NumPy ``.npz`` archives and load them back."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import IO, Any

import numpy

from chainer import serializer
from chainer.serializers._common import restore, to_host

PathOrFile = str | os.PathLike[str] | IO[bytes]


class DictionarySerializer(serializer.Serializer):
    """Serializer that stores every value as a NumPy array in a flat dict.

    Keys are slash-separated paths such as ``'predictor/l1/W'``; None is stored
    as a 0-dimensional object array.

    Args:
        target: the dict to fill (a new one by default).
        path: the prefix of the keys written by this serializer.
    """

    def __init__(self, target: dict[str, Any] | None = None, path: str = '') -> None:
        if target is None:
            target = {}
        self.target = target
        self.path = path

    def __getitem__(self, key: str) -> DictionarySerializer:
        """Return the serializer of the child group ``key``."""
        key = key.strip('/')
        return DictionarySerializer(self.target, self.path + key + '/')

    def __call__(self, key: str, value: Any) -> Any:
        """Store ``value`` (copied to the host) under ``key``; return ``value``."""
        host = to_host(value)
        if host is None:
            arr = numpy.empty((), dtype=object)
        else:
            arr = numpy.asarray(host)
        self.target[self.path + key.lstrip('/')] = arr
        return value


def _is_ignored(key: str, ignore_names: Any) -> bool:
    names = ignore_names if isinstance(ignore_names, (list, tuple)) else (ignore_names,)
    for name in names:
        if isinstance(name, str):
            if key == name:
                return True
        elif callable(name):
            if name(key):
                return True
        else:
            raise ValueError('ignore_names needs to be a callable, string or list of them.')
    return False


class NpzDeserializer(serializer.Deserializer):
    """Deserializer that reads values from an NPZ archive (or any mapping).

    Args:
        npz: the loaded archive (``numpy.load(...)``) or a dict of arrays.
        path: the prefix of the keys read by this deserializer (for example
            ``'updater/model:main/'`` to load a model out of a trainer snapshot).
        strict: if True, a missing key raises KeyError; if False, the value
            is left as it is.
        ignore_names: key(s) to leave untouched: strings (full keys) or
            callables taking the key and returning True to ignore it.
    """

    def __init__(self, npz: Any, path: str = '', strict: bool = True,
                 ignore_names: str | Callable[[str], bool] | Iterable[Any] | None = None
                 ) -> None:
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = [] if ignore_names is None else ignore_names

    def __getitem__(self, key: str) -> NpzDeserializer:
        """Return the deserializer of the child group ``key``."""
        key = key.strip('/')
        return NpzDeserializer(self.npz, self.path + key + '/', strict=self.strict,
                               ignore_names=self.ignore_names)

    def __call__(self, key: str, value: Any) -> Any:
        """Load the value stored under ``key`` into ``value`` and return it.

        Arrays are filled in place; for None the stored array is returned;
        a stored None gives None.

        Raises:
            KeyError: when ``key`` is missing and ``strict`` is True.
        """
        key = self.path + key.lstrip('/')
        if key not in self.npz:
            if not self.strict:
                return value
            if _is_ignored(key, self.ignore_names):
                return value
            raise KeyError(
                f"{key!r} is not found in the NPZ data (pass strict=False to load_npz "
                'to skip missing entries)')
        if _is_ignored(key, self.ignore_names):
            return value
        stored = self.npz[key]
        if stored.dtype == object and stored.shape == () and stored[()] is None:
            return None
        return restore(value, stored, key)


def save_npz(file: PathOrFile, obj: Any, compression: bool = True) -> None:
    """Save ``obj`` (a link, optimizer, trainer... anything with ``serialize``) as NPZ.

    Args:
        file: a path or a binary file object opened for writing.
        obj: the object to save.
        compression: zip-compress the archive.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, 'wb') as f:
            save_npz(f, obj, compression)
        return
    s = DictionarySerializer()
    s.save(obj)
    if compression:
        numpy.savez_compressed(file, **s.target)
    else:
        numpy.savez(file, **s.target)


def load_npz(file: PathOrFile, obj: Any, path: str = '', strict: bool = True,
             ignore_names: str | Callable[[str], bool] | Iterable[Any] | None = None
             ) -> None:
    """Load ``obj`` from an NPZ archive written by :func:`save_npz`.

    Uninitialized (lazy) parameters are initialized with the stored shapes.
    Only load files you trust: entries saved for None are pickled objects.

    Args:
        file: a path or a binary file object opened for reading.
        obj: the object to load into.
        path: the prefix of the keys to read (e.g. ``'updater/model:main/'``).
        strict: if True, a key missing from the file raises KeyError.
        ignore_names: key(s) to skip: strings or callables ``f(key) -> bool``.
    """
    with numpy.load(file, allow_pickle=True) as npz:
        d = NpzDeserializer(npz, path=path, strict=strict, ignore_names=ignore_names)
        d.load(obj)
