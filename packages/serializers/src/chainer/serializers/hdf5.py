"""HDF5 serialization (needs the optional dependency h5py).

Loading is all or nothing (see :mod:`._transaction`); HDF5 files hold no pickles, and
entries that are neither numbers nor text (references, compound or opaque data) are
refused.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
from typing import Any

import numpy

from chainer import serializer
from chainer.serializers import _transaction
from chainer.serializers._common import InvalidFileError, assign, describe_file, to_host

# Whether h5py is installed (the name Chainer v7 code checks). h5py itself is imported
# at the first use (it takes a noticeable share of ``import chainer.serializers``).
_available = importlib.util.find_spec('h5py') is not None

_MISSING = ('HDF5 serialization needs h5py, which is not installed: '
            'pip install h5py (or pip install "chainer-serializers[hdf5]")')


def _h5py() -> Any:
    """The h5py module.

    Raises:
        RuntimeError: when h5py is not installed (or cannot be imported).
    """
    try:
        import h5py
    except ImportError as e:
        raise RuntimeError(_MISSING) from e
    return h5py


def __getattr__(name: str) -> Any:
    if name == 'h5py':  # ``chainer.serializers.hdf5.h5py``, as v7 had it
        try:
            return _h5py()
        except RuntimeError:
            return None
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def _check_available() -> None:
    _h5py()


def _child_name(group: Any, key: str) -> str:
    key = key.strip('/')
    base = group.name.rstrip('/')
    return f'{base}/{key}'


def _file_of(group: Any) -> str:
    try:
        return describe_file(group.file.filename)
    except Exception:
        return 'the HDF5 file'


@contextlib.contextmanager
def _reading(where: str) -> Iterator[None]:
    """Turn a failure of h5py while reading ``where`` into InvalidFileError."""
    try:
        yield
    except InvalidFileError:
        raise
    except Exception as e:
        raise InvalidFileError(f'cannot load {where}: the file is damaged '
                               f'({type(e).__name__}: {e})') from e


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
        """Write ``value`` as dataset ``key``; return ``value``.

        Raises:
            RuntimeError: for None with an h5py older than 2.7 (no empty datasets).
        """
        key = key.strip('/')
        if value is None:
            if tuple(_h5py().version.version_tuple[:2]) < (2, 7):
                raise RuntimeError('saving None to HDF5 needs h5py 2.7 or later')
            self.group.create_dataset(key, data=_h5py().Empty('f'))
            return value
        if isinstance(value, str):
            # HDF5 has no fixed-width unicode type: store a variable-length string.
            self.group.create_dataset(key, data=value, dtype=_h5py().string_dtype())
            return value
        arr = numpy.asarray(to_host(value))
        compression = self.compression if arr.size > 1 else None
        self.group.create_dataset(key, data=arr, compression=compression)
        return value


class _DatasetEntry:
    """One dataset, its shape and type checked before its data is read."""

    def __init__(self, dataset: Any, where: str) -> None:
        self._dataset = dataset
        self._where = where
        with _reading(where):
            shape = dataset.shape
            dtype = dataset.dtype
            self.is_text = _h5py().check_string_dtype(dtype) is not None
        self.is_none = shape is None
        self.shape = () if shape is None else tuple(shape)
        self.dtype = numpy.dtype(str) if self.is_text else dtype

    def load(self, dtype: numpy.dtype[Any] | None = None) -> numpy.ndarray[Any, Any]:
        """Read the data (converted by HDF5 to ``dtype`` if given)."""
        with _reading(self._where):
            if self.is_text:
                text = self._dataset.asstr()[()]
                return numpy.asarray(text if isinstance(text, str) else text.tolist(),
                                     dtype=str)
            if dtype is None or dtype == self.dtype:
                return numpy.asarray(self._dataset[()])
            out = numpy.empty(self.shape, dtype=dtype)
            self._dataset.read_direct(out)
            return out


class HDF5Deserializer(serializer.Deserializer):
    """Deserializer that reads values from the datasets of an HDF5 group.

    :meth:`load` is all or nothing: when it fails, the target is left unchanged.

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
        self._source: str | None = None
        self._tx: _transaction.Transaction | None = None

    def _file(self) -> str:
        if self._source is None:
            self._source = _file_of(self.group)
        return self._source

    def describe(self, key: str) -> str:
        """The full path of ``key`` and the file, for messages."""
        return f'{_child_name(self.group, key)!r} in {self._file()}'

    def __getitem__(self, key: str) -> HDF5Deserializer:
        """Return the deserializer of the child group ``key``.

        A group missing from the file gives a deserializer in which every key
        is missing (so strict loading raises KeyError naming the full path).

        Raises:
            ValueError: when ``key`` is a dataset, not a group.
            InvalidFileError: when the file is damaged.
        """
        name = _child_name(self.group, key)
        where = f'{name!r} in {self._file()}'
        with _reading(where):
            root = self.group.file
            child = root[name] if name in root else _EmptyGroup(name, root)
        if not isinstance(child, (_h5py().Group, _EmptyGroup)):
            raise ValueError(f'cannot load {where}: it is a dataset where a group is expected')
        d = HDF5Deserializer(child, strict=self.strict)
        d._source = self._source
        d._tx = self._tx
        return d

    def __call__(self, key: str, value: Any) -> Any:
        """Load dataset ``key`` into ``value`` and return it.

        Raises:
            KeyError: when ``key`` is missing and ``strict`` is True.
            InvalidFileError: when the file is damaged.
            ValueError: when the stored data does not fit ``value`` (a group, the
                wrong kind or shape).
            TypeError: when the stored numbers cannot be cast to ``value``'s type.
        """
        key = key.strip('/')
        where = self.describe(key)
        with _reading(where):
            present = key in self.group
            node = self.group[key] if present else None
        if node is None:
            if not self.strict:
                return value
            raise KeyError(f'{where} is not found (pass strict=False to skip missing '
                           'entries)')
        if not isinstance(node, _h5py().Dataset):
            raise ValueError(f'cannot load {where}: it is a group where a value is expected')
        return assign(value, _DatasetEntry(node, where), where,
                      _transaction.pending(self._tx))

    def load(self, obj: Any) -> None:
        """Load ``obj`` (anything with ``serialize``): all entries or none.

        Every entry is checked before any existing array is written; if anything
        fails, ``obj`` (and what it holds) is left as it was and the error is raised.
        """
        _transaction.run(self, obj)


class _EmptyGroup:
    # Stands for a group missing from the file.
    def __init__(self, name: str, root: Any) -> None:
        self.name = name
        self.file = root

    def __contains__(self, key: str) -> bool:
        return False


def save_hdf5(filename: str | os.PathLike[str], obj: Any, compression: int = 4) -> None:
    """Save ``obj`` (anything with ``serialize``) to the HDF5 file ``filename``.

    Raises:
        RuntimeError: when h5py is not installed.
    """
    _check_available()
    with _h5py().File(filename, 'w') as f:
        HDF5Serializer(f, compression=compression).save(obj)


def load_hdf5(filename: str | os.PathLike[str], obj: Any) -> None:
    """Load ``obj`` from the HDF5 file ``filename`` written by :func:`save_hdf5`.

    All or nothing: every entry is checked before the first array is written,
    and on any error ``obj`` is left unchanged.

    Raises:
        RuntimeError: when h5py is not installed.
        InvalidFileError: when the file is not a readable HDF5 file or is damaged.
        KeyError: when an entry is missing.
        ValueError: when an entry does not fit its target (a group, kind, shape).
        TypeError: when stored numbers cannot be cast to the target's type.
    """
    _check_available()
    source = describe_file(filename)
    try:
        f = _h5py().File(filename, 'r')
    except Exception as e:
        raise InvalidFileError(f'cannot load {source} as an HDF5 file: it is not one, or it '
                               f'is damaged or truncated ({type(e).__name__}: {e})') from e
    with f:
        d = HDF5Deserializer(f)
        d._source = source
        d.load(obj)
