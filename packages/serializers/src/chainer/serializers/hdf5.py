"""HDF5 serialization (needs the optional dependency h5py)."""

from __future__ import annotations

import os
from typing import Any

import numpy

from chainer import serializer
from chainer.serializers._common import restore, to_host

try:
    import h5py
except ImportError:  # pragma: no cover - depends on the environment
    h5py = None

# Whether h5py could be imported (the name Chainer v7 code checks).
_available = h5py is not None

_MISSING = ('HDF5 serialization needs h5py, which is not installed: '
            'pip install h5py (or pip install "chainer-serializers[hdf5]")')


def _check_available() -> None:
    if h5py is None:
        raise RuntimeError(_MISSING)


def _child_name(group: Any, key: str) -> str:
    key = key.strip('/')
    base = group.name.rstrip('/')
    return f'{base}/{key}'


class HDF5Serializer(serializer.Serializer):
    """Serializer that writes values as datasets of an HDF5 group.

    None is stored as an empty dataset.

    Args:
        group: an open ``h5py.File`` or ``h5py.Group``.
        compression: gzip level for arrays with more than one element.

    Raises:
        RuntimeError: when h5py is not installed.
    """

    def __init__(self, group: Any, compression: int = 4) -> None:
        _check_available()
        self.group = group
        self.compression = compression

    def __getitem__(self, key: str) -> HDF5Serializer:
        """Return the serializer of the child group ``key`` (created if needed)."""
        return HDF5Serializer(self.group.require_group(_child_name(self.group, key)),
                              self.compression)

    def __call__(self, key: str, value: Any) -> Any:
        """Write ``value`` as dataset ``key``; return ``value``."""
        key = key.strip('/')
        if value is None:
            self.group.create_dataset(key, data=h5py.Empty('f'))
            return value
        if isinstance(value, str):
            # HDF5 has no fixed-width unicode type: store a variable-length string.
            self.group.create_dataset(key, data=value, dtype=h5py.string_dtype())
            return value
        arr = numpy.asarray(to_host(value))
        compression = self.compression if arr.size > 1 else None
        self.group.create_dataset(key, data=arr, compression=compression)
        return value


class HDF5Deserializer(serializer.Deserializer):
    """Deserializer that reads values from the datasets of an HDF5 group.

    Args:
        group: an open ``h5py.File`` or ``h5py.Group``.
        strict: if True, a missing key raises KeyError; if False, it is skipped.

    Raises:
        RuntimeError: when h5py is not installed.
    """

    def __init__(self, group: Any, strict: bool = True) -> None:
        _check_available()
        self.group = group
        self.strict = strict

    def __getitem__(self, key: str) -> HDF5Deserializer:
        """Return the deserializer of the child group ``key``.

        A group missing from the file gives a deserializer in which every key
        is missing (so strict loading raises KeyError naming the full path).
        """
        name = _child_name(self.group, key)
        root = self.group.file
        child = root[name] if name in root else _EmptyGroup(name)
        return HDF5Deserializer(child, strict=self.strict)

    def __call__(self, key: str, value: Any) -> Any:
        """Load dataset ``key`` into ``value`` and return it.

        Raises:
            KeyError: when ``key`` is missing and ``strict`` is True.
        """
        key = key.strip('/')
        if key not in self.group:
            if not self.strict:
                return value
            raise KeyError(f'{_child_name(self.group, key)!r} is not found in the HDF5 file '
                           '(pass strict=False to skip missing entries)')
        dataset = self.group[key]
        if dataset.shape is None:
            return None
        if h5py.check_string_dtype(dataset.dtype) is not None:
            stored = dataset.asstr()[()]
            return stored if value is None else restore(value, numpy.asarray(stored), key)
        return restore(value, numpy.asarray(dataset), key)


class _EmptyGroup:
    # Stands for a group missing from the file when loading with strict=False.
    def __init__(self, name: str) -> None:
        self.name = name
        self.file = self

    def __contains__(self, key: str) -> bool:
        return False


def save_hdf5(filename: str | os.PathLike[str], obj: Any, compression: int = 4) -> None:
    """Save ``obj`` (anything with ``serialize``) to the HDF5 file ``filename``.

    Raises:
        RuntimeError: when h5py is not installed.
    """
    _check_available()
    with h5py.File(filename, 'w') as f:
        HDF5Serializer(f, compression=compression).save(obj)


def load_hdf5(filename: str | os.PathLike[str], obj: Any) -> None:
    """Load ``obj`` from the HDF5 file ``filename`` written by :func:`save_hdf5`.

    Raises:
        RuntimeError: when h5py is not installed.
    """
    _check_available()
    with h5py.File(filename, 'r') as f:
        HDF5Deserializer(f).load(obj)
