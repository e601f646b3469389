"""Write files atomically: the one writer of every file the Chainer distributions save.

Public API of chainer-array-backend for the other distributions (serializers, snapshots,
checkpoints, logs, plots, the dataset download cache) and for users.

A writer gets a temporary path in a fresh folder ``tmp<name>.ctmp-<host>-<pid>-<random>``
next to the target (same file system, so the final rename is atomic; the temporary
file keeps the target's base name, so savers that look at the extension, such as
``numpy.savez`` or matplotlib, see the real one). On success the file is flushed and
``os.fsync``-ed, renamed over the target and, where the platform allows (POSIX), the
folder is ``fsync``-ed too, so the new name survives a power cut. On any error the
temporary folder is removed and the target is left as it was. Readers therefore see
either the old file or the complete new one, never a partial file.

A process killed while writing leaves its temporary folder behind:
:func:`remove_stale` removes those of dead processes of this host, and every writer
calls it once per process for each folder it writes to.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from typing import IO, Any

__all__ = ['atomic_open', 'atomic_path', 'remove_stale', 'temp_prefix']

_MARK = '.ctmp-'
_STALE = re.compile(r'tmp.*\.ctmp-(?P<host>[A-Za-z0-9]*)-(?P<pid>\d+)-[^./\\]*')
_cleaned: set[str] = set()
_cleaned_lock = threading.Lock()
_active: set[str] = set()  # temporary folders of the writes in progress in this process

PathLike = str | os.PathLike[str]


def _host() -> str:
    try:
        name = socket.gethostname()
    except OSError:  # pragma: no cover - no host name
        name = ''
    return re.sub(r'[^A-Za-z0-9]', '', name)[:32]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` of this host may still be running (True when unsure)."""
    if pid == os.getpid():
        return True
    if os.name != 'posix':  # os.kill would terminate the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. PermissionError: the process exists
        return True
    return True


def temp_prefix(filename: str, pid: int | None = None) -> str:
    """The name prefix of the temporary folder used to write ``filename``.

    Args:
        filename: the target's name (only its base name is used).
        pid: the writing process (default: this one); the host is always this one.

    Returns:
        ``tmp<base name>.ctmp-<host>-<pid>-``; a random part follows in the real name.
    """
    pid = os.getpid() if pid is None else pid
    return f'tmp{os.path.basename(filename)}{_MARK}{_host()}-{pid}-'


def remove_stale(directory: PathLike) -> list[str]:
    """Remove the temporary folders left in ``directory`` by dead writers.

    Only folders named as :func:`temp_prefix` says, whose process ran on this host and
    is gone, are removed; those of live processes (this one included) and of other
    hosts are left alone, and so is everything else.

    Args:
        directory: the folder to clean (need not exist).

    Returns:
        The names removed.
    """
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    host = _host()
    removed = []
    for name in names:
        m = _STALE.fullmatch(name)
        if m is None or m['host'] != host or _alive(int(m['pid'])):
            continue
        path = os.path.join(directory, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(name)
    return removed


def _clean_once(directory: str) -> None:
    key = os.path.realpath(directory)
    with _cleaned_lock:
        if key in _cleaned:
            return
        _cleaned.add(key)
    remove_stale(directory)


def _fsync_file(path: str) -> None:
    # POSIX syncs through any descriptor; Windows needs one open for writing
    fd = os.open(path, os.O_RDONLY if os.name == 'posix' else os.O_RDWR)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_directory(path: str) -> None:
    """Flush a folder's entries to disk where the platform can (POSIX); else nothing."""
    if os.name != 'posix':
        return
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, 'O_DIRECTORY', 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder; the rename is done anyway
        pass
    finally:
        os.close(fd)


def _commit(tmp: str, final: str, overwrite: bool) -> None:
    if overwrite:
        os.replace(tmp, final)
        return
    try:
        os.link(tmp, final)  # fails, atomically, when ``final`` exists
    except FileExistsError:
        return
    except OSError:  # no hard links on this file system: check, then rename
        if not os.path.lexists(final):
            os.replace(tmp, final)


@contextlib.contextmanager
def _writing(path: PathLike, overwrite: bool, synced: list[bool]) -> Iterator[str]:
    given = os.fspath(path)
    final = os.path.abspath(given)
    folder, name = os.path.split(final)
    if not name or given.endswith(('/', os.sep)) or os.path.isdir(final):
        raise ValueError(f'cannot write {given!r}: it names a folder, not a file')
    with _cleaned_lock:
        nested = os.path.normcase(folder) in _active
    if nested:
        # The target is the temporary file of an enclosing atomic write (save_npz called
        # by a snapshot writer): write it in place; the enclosing write syncs and renames.
        try:
            yield final
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(final)
            raise
        return
    os.makedirs(folder, exist_ok=True)
    _clean_once(folder)
    tmp_dir = tempfile.mkdtemp(prefix=temp_prefix(name), dir=folder)
    key = os.path.normcase(tmp_dir)
    with _cleaned_lock:
        _active.add(key)
    try:
        tmp = os.path.join(tmp_dir, name)
        yield tmp
        if not os.path.lexists(tmp):
            raise FileNotFoundError(f'nothing was written to the temporary file of {final}')
        if not synced[0] and os.path.isfile(tmp):
            _fsync_file(tmp)
        _commit(tmp, final, overwrite)
        _fsync_directory(folder)
    finally:
        with _cleaned_lock:
            _active.discard(key)
        shutil.rmtree(tmp_dir, ignore_errors=True)


@contextlib.contextmanager
def atomic_path(path: PathLike, *, overwrite: bool = True) -> Iterator[str]:
    """Yield a temporary path to write; on success, move that file to ``path``.

    For savers that take a path (``h5py.File``, ``figure.savefig``, ...): write the
    file at the yielded path. When the ``with`` block ends normally, the file is
    ``fsync``-ed and renamed to ``path`` (the folder is ``fsync``-ed where possible);
    when it raises, the temporary file is removed and ``path`` is unchanged.

    Args:
        path: the target file; its folder is created if missing.
        overwrite: replace an existing ``path`` (default). If False, an existing
            ``path`` is kept and the new file dropped (atomically: of several writers,
            the first to finish wins).

    Raises:
        FileNotFoundError: the block ended without writing the temporary file.
        ValueError: ``path`` names a folder.
    """
    with _writing(path, overwrite, [False]) as tmp:
        yield tmp


@contextlib.contextmanager
def atomic_open(path: PathLike, mode: str = 'wb', *, encoding: str | None = None,
                newline: str | None = None, overwrite: bool = True) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on success, flush, fsync and move it to ``path``.

    ``with atomic_open(path, 'w') as f: f.write(text)`` leaves either the old ``path``
    or the complete new file, never a partial one; when the block raises, ``path`` is
    unchanged and no temporary file is left.

    Args:
        path: the target file; its folder is created if missing.
        mode: a writing mode of :func:`open` (``'wb'``, ``'w'``, ``'w+b'``, ...).
        encoding: the text encoding (text modes).
        newline: newline translation (text modes), as for :func:`open`.
        overwrite: as for :func:`atomic_path`.

    Raises:
        ValueError: ``mode`` does not write a new file (``'r'``, ``'a'``, no ``'w'``).
    """
    if 'w' not in mode or 'r' in mode or 'a' in mode or 'x' in mode:
        raise ValueError(f'atomic_open writes a new file: mode must be "w" or "wb" (with '
                         f'"t" or "+" if needed), not {mode!r}')
    synced = [False]
    with _writing(path, overwrite, synced) as tmp:
        with open(tmp, mode, encoding=encoding, newline=newline) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        synced[0] = True
