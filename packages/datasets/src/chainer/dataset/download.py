"""The dataset root, the download cache and cached file creation (``chainer.dataset.download``).

Everything lives under the dataset root: ``$CHAINER_DATASET_ROOT``, else
``~/.chainer/dataset``, unless :func:`set_dataset_root` chose another. The layout is
Chainer v7's, so an existing v7 cache is used as it is:

- ``<root>/<dataset name>/...``: files of a dataset (e.g. ``pfnet/chainer/mnist/train.npz``),
  see :func:`get_dataset_directory`;
- ``<root>/_dl_cache/<md5 of the URL>``: files fetched by :func:`cached_download`;
- ``<root>/_dl_lock``: the lock that serializes cache writers across processes.

Every file is written to a temporary name in its final folder and renamed into place, so
a crash or a failed download never leaves a half-written file under its final name.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

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
_LOCK_FILE = '_dl_lock'
_CHUNK = 1 << 20
_TIMEOUT_SECONDS = 60.0  # without a byte for this long, a download fails
_thread_lock = threading.Lock()
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


@contextlib.contextmanager
def _cache_lock() -> Iterator[None]:
    """Serialize writers of the cache: across threads, and across processes where possible."""
    root = _ensure_root()
    with _thread_lock, open(os.path.join(root, _LOCK_FILE), 'a+b') as handle:
        try:
            import fcntl  # layout: optional
        except ImportError:  # Windows: threads are still serialized
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


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
        out.flush()
        os.fsync(out.fileno())
        if total and done != total:
            raise DownloadError(f'the server sent {done} of {total} bytes')
        if show:
            sys.stderr.write('\n')


def cached_download(url: str) -> str:
    """Download a file once and return the path of its cached copy.

    When the cache (``<root>/_dl_cache/<md5 of url>``) already holds the file, no
    download happens. A download goes to a temporary file that is renamed into the cache
    only once complete, under a lock shared by the processes using the same root.

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
    os.makedirs(cache_dir, exist_ok=True)
    with _cache_lock():
        if os.path.exists(path):  # another process finished it while we waited
            return path
        fd, tmp = tempfile.mkstemp(prefix='.download-', dir=cache_dir)
        os.close(fd)
        os.remove(tmp)
        sys.stderr.write(f'Downloading from {url}...\n')
        try:
            _fetch(url, tmp)
        except (OSError, ValueError, urllib.error.URLError) as exc:
            with contextlib.suppress(FileNotFoundError):
                os.remove(tmp)
            raise DownloadError(
                f'cannot download {url}: {exc}. Without network access, download it '
                f'elsewhere and place it at {path}') from exc
        os.replace(tmp, path)
    return path


def cache_or_load_file(path: str, creator: Callable[[str], _T],
                       loader: Callable[[str], _T]) -> _T:
    """Load ``path`` with ``loader`` if it exists; else make it with ``creator`` and cache it.

    ``creator`` receives a temporary path in a fresh folder (no file there yet), writes
    the file and returns the content; the file is then renamed to ``path``, safely even
    when several threads or processes do the same at once (the first one's file is kept).

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
    _ensure_root()  # the lock lives there; fail before doing any work
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    tmp_dir = tempfile.mkdtemp(prefix='.creating-', dir=folder)
    try:
        tmp = os.path.join(tmp_dir, os.path.basename(path))
        content: Any = creator(tmp)
        with _cache_lock():
            if not os.path.exists(path):
                os.replace(tmp, path)
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
    return content
