"""Helpers shared by the NPZ and HDF5 serializers: errors, entries and loading rules."""

from __future__ import annotations

import numbers
import os
from typing import Any, Protocol

import numpy

from chainer import backend


class InvalidFileError(ValueError):
    """A file, or one of its entries, cannot be read safely.

    Raised for a file that is not of the expected format (e.g. a pickle given to
    ``load_npz``), a truncated or damaged file or entry, and an entry holding
    pickled Python objects, which are never unpickled. The message names the file
    and, where one is concerned, the entry. A subclass of ``ValueError``.
    """


NUMERIC_KINDS = 'biufc'
TEXT_KINDS = 'US'


class Entry(Protocol):
    """One stored value, checked before its data is read."""

    is_none: bool
    shape: tuple[int, ...]
    dtype: numpy.dtype[Any]

    def load(self, dtype: numpy.dtype[Any] | None = None) -> numpy.ndarray[Any, Any]:
        """Read the data, converted to ``dtype`` if given."""


def describe_file(file: Any) -> str:
    """A short readable name of ``file`` (a path or a file object) for messages."""
    if isinstance(file, (str, bytes, os.PathLike)):
        return repr(os.fsdecode(file))
    name = getattr(file, 'name', None)
    if isinstance(name, (str, bytes, os.PathLike)):
        return repr(os.fsdecode(name))
    return f'<{type(file).__name__}>'


def describe_dtype(dtype: numpy.dtype[Any]) -> str:
    """``dtype`` in words for messages."""
    if dtype.kind in TEXT_KINDS:
        return f'text (dtype {dtype})'
    if dtype.hasobject:
        return 'Python objects (dtype object)'
    if dtype.kind == 'V':
        return f'structured data (dtype {dtype})'
    return f'dtype {dtype}'


def is_device_array(value: Any) -> bool:
    """Whether ``value`` is a NumPy, CuPy or ChainerX array."""
    if isinstance(value, numpy.ndarray):
        return True
    cupy = backend.cuda.cupy
    if cupy is not None and isinstance(value, cupy.ndarray):
        return True
    return backend.ChainerxDevice.from_array(value) is not None


def to_host(value: Any) -> Any:
    """Return ``value`` with a device array copied to a NumPy array."""
    if isinstance(value, numpy.ndarray) or value is None:
        return value
    cupy = backend.cuda.cupy
    if cupy is not None and isinstance(value, cupy.ndarray):
        return value.get()
    if backend.ChainerxDevice.from_array(value) is not None:
        return backend.CpuDevice().send(value)  # a native array's NumPy data, shared
    return value


def copy_into(target: Any, data: numpy.ndarray[Any, Any]) -> None:
    """Write ``data`` (a NumPy array of the same shape) into the array ``target``."""
    if isinstance(target, numpy.ndarray):
        numpy.copyto(target, data)
    elif backend.ChainerxDevice.from_array(target) is not None:
        backend.copyto(target, data)  # into the NumPy/CuPy array behind it
    else:
        cupy = backend.cuda.cupy
        cupy.copyto(target, cupy.asarray(data))


def assign(value: Any, entry: Entry, where: str, fills: list[Any] | None) -> Any:
    """Load ``entry`` for the current ``value`` following Chainer v7's rules.

    A stored None gives None. For ``value`` None the stored array is returned. An
    array ``value`` receives the data in place (deferred by appending
    ``(value, data)`` to ``fills`` when given) and is returned. A Python or NumPy
    scalar gives a new value of its own type; text is returned as ``str``.

    Args:
        value: the current value.
        entry: the stored entry.
        where: the entry and its file, for messages (e.g. ``"'l1/W' in 'a.npz'"``).
        fills: where to collect array writes, or None to write at once.

    Raises:
        ValueError: for data of the wrong kind (text or objects where numbers are
            expected) or of the wrong shape.
        TypeError: when the stored numbers cannot be cast to the target's type.
    """
    if entry.is_none:
        return None
    kind = entry.dtype.kind
    if kind not in NUMERIC_KINDS + TEXT_KINDS:
        raise ValueError(f'cannot load {where}: it holds {describe_dtype(entry.dtype)}, '
                         'not numbers or text')
    if value is None:
        return entry.load()
    if is_device_array(value):
        if kind not in NUMERIC_KINDS:
            raise ValueError(
                f'cannot load {where}: it holds {describe_dtype(entry.dtype)} where a '
                f'numeric array of shape {value.shape} is expected')
        if tuple(entry.shape) != tuple(value.shape):
            raise ValueError(
                f'cannot load {where}: the stored array has shape {tuple(entry.shape)} '
                f'but the target has shape {tuple(value.shape)}')
        if not numpy.can_cast(entry.dtype, value.dtype, 'same_kind'):
            raise TypeError(
                f'cannot load {where}: the stored dtype {entry.dtype} cannot be cast to '
                f'the target dtype {value.dtype}')
        data = entry.load(value.dtype)
        if fills is None:
            copy_into(value, data)
        else:
            fills.append((value, data))
        return value
    return _load_scalar(value, entry, where)


def _load_scalar(value: Any, entry: Entry, where: str) -> Any:
    value_type = type(value)
    kind = entry.dtype.kind
    is_number = isinstance(value, (numbers.Number, numpy.generic))
    if is_number and kind in TEXT_KINDS:
        raise ValueError(f'cannot load {where}: it holds {describe_dtype(entry.dtype)} '
                         f'where a {value_type.__name__} is expected')
    if (is_number and kind in 'iufc'
            and not (kind in 'iu' and value_type is int)
            and not numpy.can_cast(entry.dtype, numpy.dtype(value_type), 'safe')):
        raise TypeError(f'cannot load {where}: the stored value of dtype {entry.dtype} '
                        f'cannot be cast to {value_type.__name__} safely')
    if int(numpy.prod(entry.shape)) != 1:
        raise ValueError(f'cannot load {where}: a single value is expected but the stored '
                         f'array has shape {tuple(entry.shape)}')
    arr = entry.load().reshape(())
    if value_type in (int, float, bool, complex, str):
        item = arr.item()
        if isinstance(item, bytes):
            item = item.decode('utf-8', errors='replace')
        return value_type(item)
    try:
        return value_type(arr)
    except (TypeError, ValueError) as e:
        raise TypeError(f'cannot load {where} into a {value_type.__name__}: {e}') from e


def is_ignored(key: str, ignore_names: Any) -> bool:
    """Whether ``key`` is one of ``ignore_names`` (names or predicates, or a list of them).

    Raises:
        ValueError: for an ignore_names item that is neither a string nor callable.
    """
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
