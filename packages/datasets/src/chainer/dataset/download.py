"""The dataset root, the download cache and cached file creation (``chainer.dataset.download``).

Everything lives under the dataset root: ``$CHAINER_DATASET_ROOT``, else
``~/.chainer/dataset``, unless :func:`set_dataset_root` chose another. The layout is
Chainer v7's, so an existing v7 cache is used as it is:

- ``<root>/<dataset name>/...``: files of a dataset (e.g. ``pfnet/chainer/mnist/train.npz``),
  see :func:`get_dataset_directory`;
- ``<root>/_dl_cache/<md5 of the URL>``: files fetched by :func:`cached_download`;
- ``<root>/_dl_cache/_dl_lock``: the lock of the download cache, and
  ``<root>/_create_lock``: the lock of :func:`cache_or_load_file` (both where v7 kept
  them); they are :mod:`filelock` locks, so threads and processes on any platform wait
  for each other.

Every file is written through :mod:`chainer.backends.files` (a temporary file in its final
folder, flushed, ``fsync``-ed and renamed into place), so a crash or a failed download
never leaves a half-written file under its final name.
"""

from __future__ import annotations

import hashlib
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any, TypeVar

import filelock

from chainer.backends import files

__all__ = [
    'DatasetRootError',
    'DownloadError',
    'cache_or_load_file',
    'cached_download',
    'get_dataset_directory',
    'get_dataset_root',
    'set_dataset_root',
]

_T = TypeVar('_T')
_CACHE_DIR = '_dl_cache'
_DOWNLOAD_LOCK = '_dl_lock'  # in the cache folder
_CREATE_LOCK = '_create_lock'  # in the dataset root
_CHUNK = 1 << 20
_TIMEOUT_SECONDS = 60.0  # without a byte for this long, a download fails
_dataset_root = os.environ.get(
    'CHAINER_DATASET_ROOT', os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))


class DownloadError(OSError):
    """A download failed; the message names the URL and where to put the file by hand."""


class DatasetRootError(OSError, RuntimeError):
    """The dataset root cannot be created (a file is in the way, no permission, ...).

    A :class:`RuntimeError` as in Chainer v7, and an :class:`OSError`.
    """


def get_dataset_root() -> str:
    """The root directory where datasets are downloaded and cached.

    Returns:
        ``$CHAINER_DATASET_ROOT`` (read when the module is imported), else
        ``~/.chainer/dataset``, or the path last given to :func:`set_dataset_root`.
    """
    return _dataset_root


def set_dataset_root(path: str | os.PathLike[str]) -> None:
    """Set the root directory of downloaded and cached datasets (wins over the variable).

    Args:
        path: the new root directory (created when first needed).

    Raises:
        TypeError: ``path`` is not a path.
    """
    global _dataset_root
    _dataset_root = os.fspath(path)


def get_dataset_directory(dataset_name: str, create_directory: bool = True) -> str:
    """The directory of a dataset under the dataset root.

    Args:
        dataset_name: the dataset's name, a relative path such as
            ``'pfnet/chainer/mnist'``.
        create_directory: create the directory (and its parents) when missing.

    Returns:
        ``<root>/<dataset_name>``.

    Raises:
        ValueError: ``dataset_name`` is absolute or leaves the root (``..``).
    """
    if os.path.isabs(dataset_name) or '..' in dataset_name.replace('\\', '/').split('/'):
        raise ValueError(f'dataset_name must be a relative path under the dataset root, not '
                         f'{dataset_name!r}')
    path = os.path.join(get_dataset_root(), dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


def _ensure_root() -> str:
    root = get_dataset_root()
    try:
        os.makedirs(root, exist_ok=True)
    except OSError as exc:
        raise DatasetRootError(
            f'cannot create the dataset root {root} ({exc}); set CHAINER_DATASET_ROOT or '
            f'call chainer.dataset.set_dataset_root() with a writable directory') from exc
    return root


def _cache_path(url: str) -> str:
    return os.path.join(get_dataset_root(), _CACHE_DIR, hashlib.md5(url.encode()).hexdigest())


def _lock(path: str) -> filelock.BaseFileLock:
    """A lock on ``path`` that threads and processes (any platform) wait for."""
    return filelock.FileLock(path)


def _stubbed_retrieve() -> Callable[[str, str], Any] | None:
    """A replacement of ``six.moves.urllib.request.urlretrieve``, if code installed one.

    Chainer v7 downloaded through that function, and v7-era code (v7's own tests among
    it) stubs downloads by patching it; such a stub is honoured. Nothing else uses six.
    """
    six = sys.modules.get('six')
    if six is None:
        return None
    try:
        retrieve = six.moves.urllib.request.urlretrieve
    except AttributeError:
        return None
    if retrieve is urllib.request.urlretrieve:
        return None
    return retrieve


def _fetch(url: str, dest: str) -> None:
    """Download ``url`` into the new file ``dest``, showing progress on a terminal."""
    stub = _stubbed_retrieve()
    if stub is not None:
        stub(url, dest)
        return
    with urllib.request.urlopen(url, timeout=_TIMEOUT_SECONDS) as response, \
            open(dest, 'wb') as out:
        total = int(response.headers.get('Content-Length') or 0)
        done = 0
        show = sys.stderr.isatty()
        while True:
            chunk = response.read(_CHUNK)
            if not chunk:
                break
            out.write(chunk)
            done += len(chunk)
            if show:
                part = f'{done * 100 // total:3d}% ' if total else ''
                sys.stderr.write(f'\r  {part}{done / 1e6:.1f} MB of {url}')
        if total and done != total:
            raise DownloadError(f'the server sent {done} of {total} bytes')
        if show:
            sys.stderr.write('\n')


def cached_download(url: str) -> str:
    """Download a file once and return the path of its cached copy.

    When the cache (``<root>/_dl_cache/<md5 of url>``) already holds the file, no
    download happens. A download goes to a temporary file that is renamed into the cache
    only once complete (flushed and ``fsync``-ed), under the lock
    ``<root>/_dl_cache/_dl_lock`` shared by the threads and processes using the same
    root: of several asking for the same URL at once, one downloads and the others wait
    for its file.

    Args:
        url: the URL to download from.

    Returns:
        The path of the cached file.

    Raises:
        DownloadError: the download failed (offline, HTTP error, truncated); the message
            names the URL and the exact path where the file can be placed by hand.
    """
    path = _cache_path(url)
    if os.path.exists(path):
        return path
    cache_dir = os.path.dirname(path)
    _ensure_root()
    os.makedirs(cache_dir, exist_ok=True)
    with _lock(os.path.join(cache_dir, _DOWNLOAD_LOCK)):
        if os.path.exists(path):  # another thread or process fetched it while we waited
            return path
        sys.stderr.write(f'Downloading from {url}...\n')
        try:
            with files.atomic_path(path) as tmp:
                _fetch(url, tmp)
        except (OSError, ValueError, urllib.error.URLError) as exc:
            raise DownloadError(
                f'cannot download {url}: {exc}. Without network access, download it '
                f'elsewhere and place it at {path}') from exc
    return path


def cache_or_load_file(path: str, creator: Callable[[str], _T],
                       loader: Callable[[str], _T]) -> _T:
    """Load ``path`` with ``loader`` if it exists; else make it with ``creator`` and cache it.

    ``creator`` receives a temporary path in a fresh folder beside ``path`` (no file
    there yet), writes the file and returns the content; the file is then ``fsync``-ed
    and renamed to ``path`` under the lock ``<root>/_create_lock``, safely even when
    several threads or processes do the same at once (the first one's file is kept).

    Args:
        path: where the cached file lives.
        creator: ``creator(temporary_path) -> content``.
        loader: ``loader(path) -> content``.

    Returns:
        What ``creator`` or ``loader`` returned.

    Raises:
        DatasetRootError: the dataset root (which holds the lock) cannot be created.
        Exception: what ``creator`` or ``loader`` raise; a failed ``creator`` leaves
            nothing at ``path``.
    """
    if os.path.exists(path):
        return loader(path)
    root = _ensure_root()  # the lock lives there; fail before doing any work
    lock = _lock(os.path.join(root, _CREATE_LOCK))
    try:
        with files.atomic_path(path, overwrite=False) as tmp:
            content: Any = creator(tmp)
            lock.acquire()  # held while the file is moved into place (on leaving the with)
    finally:
        if lock.is_locked:
            lock.release()
    return content
