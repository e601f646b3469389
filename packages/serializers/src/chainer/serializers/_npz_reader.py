"""Read the entries of an NPZ archive without ever unpickling Python objects.

NumPy stores an array of Python objects as a pickle, and unpickling can run code.
Chainer v7 writes None as a 0-dimensional object array, so these entries are decoded
with an unpickler that only knows how NumPy rebuilds an array; any other object array
is refused with :class:`InvalidFileError`. Numeric and text entries are read with
``allow_pickle=False``.
"""

from __future__ import annotations

import io
import math
import pickle
import zipfile
from collections.abc import Mapping
from typing import IO, Any

import numpy
from numpy.lib import format as npy_format

from chainer.serializers._common import InvalidFileError, describe_dtype, describe_file

# numpy's array constructor for pickles, in numpy._core (NumPy 2) or numpy.core (1.x)
_reduced = numpy.empty(0).__reduce__()  # (_reconstruct, its arguments, state)
assert isinstance(_reduced, tuple)
_reconstruct = _reduced[0]

_ZIP_MAGICS = (b'PK\x03\x04', b'PK\x05\x06')
_NPY_MAGIC = b'\x93NUMPY'
_OBJECTS_REFUSED = ('holds pickled Python objects (dtype object); they could run code '
                    'when unpickled, so they are never loaded')

_ARRAY_GLOBALS = {
    ('numpy.core.multiarray', '_reconstruct'): _reconstruct,
    ('numpy._core.multiarray', '_reconstruct'): _reconstruct,
    ('numpy', 'ndarray'): numpy.ndarray,
    ('numpy', 'dtype'): numpy.dtype,
}


class _ArrayOnlyUnpickler(pickle.Unpickler):
    """Unpickler that can rebuild a NumPy array and nothing that could run code."""

    def find_class(self, module: str, name: str) -> Any:
        found = _ARRAY_GLOBALS.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f'{module}.{name} is not allowed')
        return found

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError('persistent references are not allowed')


def _is_none_marker(payload: bytes) -> bool:
    """Whether ``payload`` is the pickle of a 0-dimensional object array holding None."""
    try:
        arr = _ArrayOnlyUnpickler(io.BytesIO(payload)).load()
    except Exception:
        return False
    return (isinstance(arr, numpy.ndarray) and arr.dtype.hasobject and arr.shape == ()
            and arr[()] is None)


def _check_magic(fp: IO[bytes], source: str) -> None:
    """Refuse a file that is not a zip archive before NumPy looks at it."""
    start = fp.tell()
    head = fp.read(6)
    fp.seek(start)
    if head[:4] in _ZIP_MAGICS:
        return
    if not head:
        what = 'it is empty'
    elif head.startswith(_NPY_MAGIC):
        what = 'it is a single .npy array, not an NPZ archive'
    elif head[:1] == b'\x80':
        what = 'it looks like a pickle file, which is never loaded (it could run code)'
    else:
        what = 'it is not a zip archive'
    raise InvalidFileError(f'cannot load {source} as an NPZ archive: {what}')


def open_npz(fp: IO[bytes], source: str) -> Any:
    """Open the NPZ archive in the binary file ``fp``.

    Raises:
        InvalidFileError: when ``fp`` does not hold a readable zip archive.
    """
    try:
        _check_magic(fp, source)
        return numpy.load(fp, allow_pickle=False)
    except InvalidFileError:
        raise
    except Exception as e:
        raise InvalidFileError(f'cannot load {source} as an NPZ archive: it is damaged or '
                               f'truncated ({type(e).__name__}: {e})') from e


def source_of(npz: Any) -> str:
    """The file behind an opened archive (or a mapping), for messages."""
    zf = getattr(npz, 'zip', None)
    if isinstance(zf, zipfile.ZipFile):
        if zf.filename:
            return describe_file(zf.filename)
        return describe_file(zf.fp)
    return 'the NPZ data'


class ZipEntry:
    """One member of an NPZ archive; its header is checked on construction."""

    def __init__(self, zf: zipfile.ZipFile, member: str, where: str) -> None:
        self._zf = zf
        self._member = member
        self._where = where
        self.is_none = False
        try:
            info = zf.getinfo(member)
            with zf.open(member) as fp:
                version = npy_format.read_magic(fp)
                if version == (1, 0):
                    shape, _, dtype = npy_format.read_array_header_1_0(fp)
                elif version == (2, 0):
                    shape, _, dtype = npy_format.read_array_header_2_0(fp)
                else:
                    raise ValueError(f'unsupported .npy format version {version}')
                data_start = fp.tell()
                if dtype.hasobject:
                    payload = fp.read(info.file_size - data_start)
        except Exception as e:
            raise InvalidFileError(f'cannot load {where}: the entry is damaged '
                                   f'({type(e).__name__}: {e})') from e
        self.shape = tuple(shape)
        self.dtype = dtype
        if dtype.hasobject:
            if not _is_none_marker(payload):
                raise InvalidFileError(f'cannot load {where}: it {_OBJECTS_REFUSED}')
            self.is_none = True
            return
        expected = math.prod(self.shape) * dtype.itemsize
        if info.file_size - data_start != expected:
            raise InvalidFileError(
                f'cannot load {where}: the entry is damaged (its header announces '
                f'{expected} bytes of data, it holds {info.file_size - data_start})')

    def load(self, dtype: numpy.dtype[Any] | None = None) -> numpy.ndarray[Any, Any]:
        """Read the array (checking the archive's CRC), converted to ``dtype`` if given.

        Raises:
            InvalidFileError: when the data is damaged.
        """
        try:
            with self._zf.open(self._member) as fp:
                arr = npy_format.read_array(fp, allow_pickle=False)
        except Exception as e:
            raise InvalidFileError(f'cannot load {self._where}: the entry is damaged '
                                   f'({type(e).__name__}: {e})') from e
        if dtype is not None and arr.dtype != dtype:
            arr = arr.astype(dtype)
        return arr


class ArrayEntry:
    """An entry of a mapping of arrays (a dict given to ``NpzDeserializer``)."""

    def __init__(self, value: Any, where: str) -> None:
        arr = numpy.asarray(value)
        self.is_none = False
        if arr.dtype.hasobject:
            if arr.shape == () and arr[()] is None:
                self.is_none = True
            else:
                raise InvalidFileError(f'cannot load {where}: it holds '
                                       f'{describe_dtype(arr.dtype)}, which are refused')
        self._arr = arr
        self.shape = arr.shape
        self.dtype = arr.dtype

    def load(self, dtype: numpy.dtype[Any] | None = None) -> numpy.ndarray[Any, Any]:
        """The array, converted to ``dtype`` if given."""
        if dtype is not None and self._arr.dtype != dtype:
            return self._arr.astype(dtype)
        return self._arr


class Entries:
    """The entries of an opened NPZ archive (``numpy.load``) or of a mapping of arrays."""

    def __init__(self, npz: Any) -> None:
        self.source = source_of(npz)
        zf = getattr(npz, 'zip', None)
        self._zip = zf if isinstance(zf, zipfile.ZipFile) else None
        if self._zip is not None:
            self._members: dict[str, str] = {}
            for name in self._zip.namelist():
                key = name[:-4] if name.endswith('.npy') else name
                self._members.setdefault(key, name)
        elif isinstance(npz, Mapping) or hasattr(npz, '__getitem__'):
            self._mapping = npz
        else:
            raise TypeError(f'NpzDeserializer needs an opened NPZ archive or a mapping of '
                            f'arrays, not {type(npz).__name__}')

    def __contains__(self, key: str) -> bool:
        if self._zip is not None:
            return key in self._members
        return key in self._mapping

    def where(self, key: str) -> str:
        """``key`` and the file, for messages."""
        return f'{key!r} in {self.source}'

    def entry(self, key: str) -> ZipEntry | ArrayEntry:
        """The checked entry ``key`` (which must be present).

        Raises:
            InvalidFileError: when the entry is damaged or holds Python objects.
        """
        if self._zip is not None:
            return ZipEntry(self._zip, self._members[key], self.where(key))
        return ArrayEntry(self._mapping[key], self.where(key))
