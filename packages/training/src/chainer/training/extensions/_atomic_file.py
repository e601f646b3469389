"""Write a file in an output directory atomically (temporary file, flush, rename).

The temporary file lives in a fresh directory ``tmp<filename>.ctmp-<host>-<pid>-<random>``
inside the output directory (same file system, so the final rename is atomic). It is
removed when writing fails; a process killed while writing leaves it behind, and
:func:`remove_stale` removes such leftovers of dead processes of this host. Every
writer cleans the directory it writes to once per process, before its first write.
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

_MARK = '.ctmp-'
_STALE = re.compile(r'tmp.*\.ctmp-(?P<host>[A-Za-z0-9]*)-(?P<pid>\d+)-[^./\\]*')
_cleaned: set[str] = set()
_cleaned_lock = threading.Lock()


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


def temp_prefix(filename: str) -> str:
    """The name prefix of the temporary directory used to write ``filename``."""
    return f'tmp{os.path.basename(filename)}{_MARK}{_host()}-{os.getpid()}-'


def remove_stale(outdir: str) -> list[str]:
    """Remove the temporary directories left in ``outdir`` by dead writers.

    Only directories named by :func:`atomic_path` whose process ran on this host
    and is gone are removed; those of live processes (including this one) and of
    other hosts are left alone.

    Args:
        outdir: the output directory (need not exist).

    Returns:
        The names removed.
    """
    try:
        names = os.listdir(outdir)
    except OSError:
        return []
    host = _host()
    removed = []
    for name in names:
        m = _STALE.fullmatch(name)
        if m is None or m['host'] != host or _alive(int(m['pid'])):
            continue
        path = os.path.join(outdir, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(name)
    return removed


def _clean_once(outdir: str) -> None:
    key = os.path.realpath(outdir)
    with _cleaned_lock:
        if key in _cleaned:
            return
        _cleaned.add(key)
    remove_stale(outdir)


def _fsync_path(path: str, directory: bool = False) -> None:
    if directory and os.name != 'posix':
        return
    try:
        fd = os.open(path, os.O_RDONLY | (getattr(os, 'O_DIRECTORY', 0) if directory else 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(outdir: str, filename: str) -> Iterator[str]:
    """Yield a temporary path; on success, flush it and move it to ``outdir/filename``.

    Readers never see a partially written file: the final name appears only once
    the file is complete and flushed to disk. Stale temporary directories of dead
    writers in ``outdir`` are removed before the first write of this process.

    Args:
        outdir: the output directory (created if missing).
        filename: the final file name, relative to ``outdir``.
    """
    os.makedirs(outdir, exist_ok=True)
    _clean_once(outdir)
    final_path = os.path.join(outdir, filename)
    final_dir = os.path.dirname(final_path)
    if final_dir:
        os.makedirs(final_dir, exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix=temp_prefix(filename), dir=outdir)
    try:
        tmp_path = os.path.join(tmpdir, os.path.basename(filename))
        yield tmp_path
        if os.path.isfile(tmp_path):
            _fsync_path(tmp_path)
        os.replace(tmp_path, final_path)
        _fsync_path(final_dir or '.', directory=True)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
