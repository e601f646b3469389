"""NPZ serialization: save objects to NumPy ``.npz`` archives and load them back.

Loading never unpickles Python objects (see :mod:`._npz_reader`) and is all or nothing
(see :mod:`._transaction`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, Any

import numpy

from chainer import serializer
from chainer.backends import files
from chainer.serializers import _npz_reader, _transaction
from chainer.serializers._common import assign, describe_file, is_ignored, to_host

PathOrFile = str | os.PathLike[str] | IO[bytes]


# What the save and load functions take: an object with ``serialize(serializer)``.
Serializable = serializer.Serializable
IgnoreNames = str | Callable[[str], bool] | Iterable[Any] | None


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


def serialize(obj: Serializable) -> dict[str, Any]:
    """Serialize ``obj`` (anything with ``serialize``) into a new dict of arrays.

    Returns:
        The dict filled by a :class:`DictionarySerializer`.
    """
    s = DictionarySerializer()
    s.save(obj)
    return s.target


class NpzDeserializer(serializer.Deserializer):
    """Deserializer that reads values from an NPZ archive (or any mapping of arrays).

    Entries holding pickled Python objects are refused, even from an archive opened
    with ``allow_pickle=True`` (only Chainer's encoding of None is decoded, safely).
    :meth:`load` is all or nothing: when it fails, the target is left unchanged.

    Args:
        npz: the loaded archive (``numpy.load(...)``) or a dict of arrays.
        path: the prefix of the keys read by this deserializer (for example
            ``'updater/model:main/'`` to load a model out of a trainer snapshot).
        strict: if True, a missing key raises KeyError; if False, the value
            is left as it is.
        ignore_names: key(s) to leave untouched: strings (full keys) or
            callables taking the key and returning True to ignore it.
    """

    def __init__(self, npz: Mapping[str, Any], path: str = '', strict: bool = True,
                 ignore_names: IgnoreNames = None) -> None:
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = [] if ignore_names is None else ignore_names
        self._entries: _npz_reader.Entries | None = None
        self._tx: _transaction.Transaction | None = None

    def _get_entries(self) -> _npz_reader.Entries:
        if self._entries is None:
            self._entries = _npz_reader.Entries(self.npz)
        return self._entries

    def __getitem__(self, key: str) -> NpzDeserializer:
        """Return the deserializer of the child group ``key``."""
        key = key.strip('/')
        child = NpzDeserializer(self.npz, self.path + key + '/', strict=self.strict,
                                ignore_names=self.ignore_names)
        child._entries = self._get_entries()
        child._tx = self._tx
        return child

    def describe(self, key: str) -> str:
        """The full key of ``key`` and the file, for messages."""
        return self._get_entries().where(self.path + key.lstrip('/'))

    def __call__(self, key: str, value: Any) -> Any:
        """Load the value stored under ``key`` into ``value`` and return it.

        Arrays are filled in place (during :meth:`load`, once every entry has
        been checked); for None the stored array is returned; a stored None
        gives None; Python scalars come back with their own type.

        Raises:
            KeyError: when ``key`` is missing and ``strict`` is True.
            InvalidFileError: when the entry is damaged or holds Python objects.
            ValueError: when the stored data does not fit ``value`` (kind, shape).
            TypeError: when the stored numbers cannot be cast to ``value``'s type.
        """
        entries = self._get_entries()
        key = self.path + key.lstrip('/')
        if key not in entries:
            if not self.strict or is_ignored(key, self.ignore_names):
                return value
            raise KeyError(f'{entries.where(key)} is not found (pass strict=False to '
                           'load_npz to skip missing entries)')
        if is_ignored(key, self.ignore_names):
            return value
        return assign(value, entries.entry(key), entries.where(key),
                      _transaction.pending(self._tx))

    def load(self, obj: Serializable) -> None:
        """Load ``obj`` (anything with ``serialize``): all entries or none.

        Every entry is checked before any existing array is written; if anything
        fails, ``obj`` (and what it holds) is left as it was and the error is raised.
        """
        _transaction.run(self, obj)


@contextlib.contextmanager
def _binary_file(file: PathOrFile) -> Iterator[IO[bytes]]:
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, 'rb') as f:
            yield f
    else:
        yield file


def save_npz(file: PathOrFile, obj: Serializable, compression: bool = True) -> None:
    """Save ``obj`` (a link, optimizer, trainer... anything with ``serialize``) as NPZ.

    A path is written atomically (:mod:`chainer.backends.files`: temporary file,
    flush, fsync, rename), so a failure leaves an existing file unchanged.

    Args:
        file: a path or a binary file object opened for writing.
        obj: the object to save.
        compression: zip-compress the archive.

    Example:
        >>> import os
        >>> import tempfile
        >>> import numpy as np
        >>> import chainer.links as L
        >>> from chainer import serializers
        >>> model = L.Linear(2, 3)
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, 'model.npz')
        ...     serializers.save_npz(path, model)
        ...     print(sorted(np.load(path).files))
        ['W', 'b']
    """
    target = serialize(obj)
    save = numpy.savez_compressed if compression else numpy.savez
    if isinstance(file, (str, os.PathLike)):
        with files.atomic_open(file, 'wb') as f:
            save(f, **target)
    else:
        save(file, **target)


def load_npz(file: PathOrFile, obj: Serializable, path: str = '', strict: bool = True,
             ignore_names: IgnoreNames = None) -> None:
    """Load ``obj`` from an NPZ archive written by :func:`save_npz`.

    Never runs code from the file: a file that is not a zip archive (e.g. a
    pickle) and entries holding pickled Python objects are refused. All or
    nothing: every entry is checked before the first array is written, and on
    any error ``obj`` is left unchanged. Uninitialized (lazy) parameters are
    initialized with the stored shapes.

    Args:
        file: a path or a binary file object opened for reading.
        obj: the object to load into.
        path: the prefix of the keys to read (e.g. ``'updater/model:main/'``).
        strict: if True, a key missing from the file raises KeyError.
        ignore_names: key(s) to skip: strings or callables ``f(key) -> bool``.

    Raises:
        InvalidFileError: when the file or an entry is not readable safely
            (not an NPZ archive, truncated, damaged, pickled objects).
        KeyError: when an entry is missing and ``strict`` is True.
        ValueError: when an entry does not fit its target (kind, shape).
        TypeError: when stored numbers cannot be cast to the target's type.

    Example:
        >>> import os
        >>> import tempfile
        >>> import numpy as np
        >>> import chainer.links as L
        >>> from chainer import serializers
        >>> src = L.Linear(2, 3, initialW=np.full((3, 2), 0.5, np.float32))
        >>> dst = L.Linear(2, 3)
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, 'model.npz')
        ...     serializers.save_npz(path, src)
        ...     serializers.load_npz(path, dst)
        >>> print(dst.W.array)
        [[0.5 0.5]
         [0.5 0.5]
         [0.5 0.5]]
    """
    source = describe_file(file)
    with _binary_file(file) as f, _npz_reader.open_npz(f, source) as npz:
        d = NpzDeserializer(npz, path=path, strict=strict, ignore_names=ignore_names)
        d._entries = _npz_reader.Entries(npz)
        d._entries.source = source
        d.load(obj)
