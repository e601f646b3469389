"""A dataset stored as a sequence of pickles in one file, and its writer.

**Security**: reading a pickle can run arbitrary code. Open only files you (or someone you
trust) wrote; never a file from an untrusted source.
"""

from __future__ import annotations

import os
import pickle
import threading
from typing import IO, Any, Protocol

from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets import _fork

__all__ = ['PickleDataset', 'PickleDatasetWriter', 'open_pickle_dataset',
           'open_pickle_dataset_writer']

class PickleDatasetWriter:
    """Writes examples one after another as pickles, making a :class:`PickleDataset`.

    Args:
        writer: A binary file-like object opened for writing.
        protocol: The pickle protocol.
    """

    def __init__(self, writer: IO[bytes], protocol: int = pickle.HIGHEST_PROTOCOL) -> None:
        self._writer = writer
        self._protocol = protocol

    def write(self, x: Any) -> None:
        """Append the example ``x`` (any picklable object)."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self) -> None:
        """Flush the underlying writer."""
        self._writer.flush()

    def close(self) -> None:
        """Close the underlying writer."""
        self._writer.close()

    def __enter__(self) -> PickleDatasetWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _BinaryReader(Protocol):
    """What :class:`PickleDataset` reads through: a binary file opened for reading."""

    def read(self, size: int = -1, /) -> bytes: ...
    def readline(self, size: int = -1, /) -> bytes: ...
    def seek(self, offset: int, whence: int = 0, /) -> int: ...
    def tell(self) -> int: ...
    def close(self) -> None: ...


class PickleDataset(DatasetMixin):
    """Dataset of the pickles stored one after another in a file.

    Making the dataset reads the whole file once to find where each pickle starts;
    an example is then unpickled on demand. Safe to use from several threads, and in
    forked processes (a reader with an ``after_fork()`` method, as the one of
    :func:`open_pickle_dataset`, reopens its file in the child).

    **Only for trusted files**: unpickling runs code chosen by whoever wrote the file.

    Args:
        reader: A binary file-like object with ``seek``, ``tell``, ``read`` and
            ``readline``.
    """

    def __init__(self, reader: _BinaryReader) -> None:
        self._reader = reader
        self._lock = threading.RLock()
        positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            positions.append(position)
        self._positions = positions
        _fork.register(self)

    def __len__(self) -> int:
        """Number of examples."""
        return len(self._positions)

    def get_example(self, i: int) -> Any:
        """Unpickle the ``i``-th example."""
        with self._lock:
            self._reader.seek(self._positions[i])
            return pickle.load(self._reader)

    def close(self) -> None:
        """Close the reader."""
        self._reader.close()

    def __enter__(self) -> PickleDataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _after_fork(self) -> None:
        self._lock = threading.RLock()  # a lock held at fork time would never be released
        hook = getattr(self._reader, 'after_fork', None)
        if callable(hook):
            hook()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state['_lock']
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()
        _fork.register(self)


class _FileReader:
    """A binary file opened by path; reopened after a fork and when unpickled."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fp = open(path, 'rb')  # noqa: SIM115 - owned by the reader, closed by close()

    def __getattr__(self, name: str) -> Any:
        if name == '_fp':
            raise AttributeError(name)
        return getattr(self._fp, name)

    def read(self, size: int = -1, /) -> bytes:
        """Read up to ``size`` bytes (all the rest by default)."""
        return self._fp.read(size)

    def readline(self, size: int = -1, /) -> bytes:
        """Read one line (at most ``size`` bytes)."""
        return self._fp.readline(size)

    def seek(self, offset: int, whence: int = 0, /) -> int:
        """Move to ``offset`` (from ``whence``); the new position."""
        return self._fp.seek(offset, whence)

    def tell(self) -> int:
        """The current position."""
        return self._fp.tell()

    def after_fork(self) -> None:
        """Reopen the file, so that the child does not share the parent's file offset."""
        self._fp.close()
        self._fp = open(self.path, 'rb')  # noqa: SIM115

    def close(self) -> None:
        """Close the file."""
        self._fp.close()

    def __getstate__(self) -> dict[str, Any]:
        return {'path': self.path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path = state['path']
        self._fp = open(self.path, 'rb')  # noqa: SIM115


def open_pickle_dataset(path: str | os.PathLike[str]) -> PickleDataset:
    """Open the :class:`PickleDataset` stored at ``path`` (usable in a ``with`` block).

    **Only for trusted files**: unpickling runs code chosen by whoever wrote the file.
    """
    return PickleDataset(_FileReader(os.fspath(path)))


def open_pickle_dataset_writer(path: str | os.PathLike[str],
                               protocol: int = pickle.HIGHEST_PROTOCOL) -> PickleDatasetWriter:
    """Create the file ``path`` and return a :class:`PickleDatasetWriter` writing to it
    (usable in a ``with`` block)."""
    return PickleDatasetWriter(open(path, 'wb'), protocol)
