"""HDF5 serialization (needs the optional dependency h5py).

Loading is all or nothing (see :mod:`._transaction`); HDF5 files hold no pickles, and
entries that are neither numbers nor text (references, compound or opaque data) are
refused.

Files are written with checksums, so that damage is reported on load instead of
loading wrong values: every non-empty array is stored chunked with HDF5's Fletcher-32
filter (checked by HDF5 on every read), and the datasets that cannot be chunked (0-d
values such as an optimizer's ``t``, and text) carry a CRC-32 of their data in the
attribute ``chainer_crc32``. Empty arrays and None hold no data to damage. Files
without checksums (Chainer 7.8.1's) load as before.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

from chainer import serializer
from chainer.backends import files
from chainer.serializers import _transaction
from chainer.serializers._common import InvalidFileError, assign, describe_file, to_host

if TYPE_CHECKING:
    import h5py

    from chainer.serializers.npz import Serializable

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


# The attribute holding the CRC-32 of a dataset that cannot carry the Fletcher-32 filter.
CHECKSUM_ATTRIBUTE = 'chainer_crc32'


def _crc32(data: Any) -> int:
    """CRC-32 of a value as stored: UTF-8 for text, little-endian bytes for numbers."""
    if isinstance(data, str):
        return zlib.crc32(data.encode('utf-8'))
    arr = numpy.asarray(data)
    if arr.dtype.kind in 'iufc' and arr.dtype.itemsize > 1:
        arr = arr.astype(arr.dtype.newbyteorder('<'), copy=False)
    return zlib.crc32(numpy.ascontiguousarray(arr).tobytes())


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

    None is stored as an empty dataset. Non-empty arrays are chunked with the
    Fletcher-32 checksum filter; 0-d values and text carry a CRC-32 attribute
    (``chainer_crc32``), so that damage is detected on load.

    Args:
        group: an open ``h5py.File`` or ``h5py.Group``.
        compression: gzip level for arrays with more than one element.

    Raises:
        RuntimeError: when h5py is not installed.
    """

    def __init__(self, group: h5py.Group, compression: int = 4) -> None:
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
            self.group.create_dataset(key, data=_h5py().Empty('f'))  # no data to damage
            return value
        if isinstance(value, str):
            # HDF5 has no fixed-width unicode type: store a variable-length string.
            dataset = self.group.create_dataset(key, data=value,
                                                dtype=_h5py().string_dtype())
            dataset.attrs[CHECKSUM_ATTRIBUTE] = numpy.uint32(_crc32(value))
            return value
        arr = numpy.asarray(to_host(value))
        if arr.ndim == 0:  # HDF5 cannot chunk a scalar, so no filter: a CRC attribute
            dataset = self.group.create_dataset(key, data=arr)
            dataset.attrs[CHECKSUM_ATTRIBUTE] = numpy.uint32(_crc32(arr))
        elif arr.size == 0:  # nor an empty array (which holds no data)
            self.group.create_dataset(key, data=arr)
        else:
            compression = self.compression if arr.size > 1 else None
            self.group.create_dataset(key, data=arr, compression=compression,
                                      fletcher32=True)
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
            crc = dataset.attrs.get(CHECKSUM_ATTRIBUTE) if shape is not None else None
        self.is_none = shape is None
        self.shape = () if shape is None else tuple(shape)
        self.dtype = numpy.dtype(str) if self.is_text else dtype
        self._crc = None if crc is None else int(numpy.asarray(crc).reshape(()))

    def _verify(self, data: Any) -> None:
        if self._crc is not None and _crc32(data) != self._crc:
            raise InvalidFileError(f'cannot load {self._where}: the file is damaged (the '
                                   f'data does not match its checksum)')

    def load(self, dtype: numpy.dtype[Any] | None = None) -> numpy.ndarray[Any, Any]:
        """Read the data (converted to ``dtype`` if given), checking its checksum.

        Raises:
            InvalidFileError: the data is damaged (Fletcher-32 or CRC-32 mismatch) or
                cannot be read.
        """
        with _reading(self._where):
            if self.is_text:
                text = self._dataset.asstr()[()]
                if isinstance(text, str):
                    self._verify(text)
                return numpy.asarray(text if isinstance(text, str) else text.tolist(),
                                     dtype=str)
            if dtype is None or dtype == self.dtype or self._crc is not None:
                data = numpy.asarray(self._dataset[()])
                self._verify(data)
                return data if dtype is None else data.astype(dtype, copy=False)
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

    def __init__(self, group: h5py.Group, strict: bool = True) -> None:
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

    def load(self, obj: Serializable) -> None:
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


def save_hdf5(filename: str | os.PathLike[str], obj: Serializable, compression: int = 4) -> None:
    """Save ``obj`` (anything with ``serialize``) to the HDF5 file ``filename``.

    The file is written atomically (:mod:`chainer.backends.files`): a failure leaves
    an existing ``filename`` unchanged. Every dataset carries a checksum (see
    :class:`HDF5Serializer`), so damage is reported by :func:`load_hdf5`.

    Raises:
        RuntimeError: when h5py is not installed.
    """
    _check_available()
    if not isinstance(filename, (str, os.PathLike)):  # an open file object
        with _h5py().File(filename, 'w') as f:
            HDF5Serializer(f, compression=compression).save(obj)
        return
    with files.atomic_path(filename) as path, _h5py().File(path, 'w') as f:
        HDF5Serializer(f, compression=compression).save(obj)


def load_hdf5(filename: str | os.PathLike[str], obj: Serializable) -> None:
    """Load ``obj`` from the HDF5 file ``filename`` written by :func:`save_hdf5`.

    All or nothing: every entry is checked before the first array is written,
    and on any error ``obj`` is left unchanged.

    Raises:
        RuntimeError: when h5py is not installed.
        InvalidFileError: when the file is not a readable HDF5 file or is damaged
            (a dataset whose data does not match its Fletcher-32 or CRC-32 checksum;
            the message names the file and the dataset).
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
