"""Datasets of images read with Pillow: from files, from zip archives, with labels.

Every image is returned as an array of shape ``(channels, height, width)``: one channel
for greyscale (and 16-bit) images, three for RGB, four for RGBA, as stored in the file.
Pillow is an optional dependency (``pip install chainer-datasets[images]``);
:data:`available` tells whether it is installed.
"""

from __future__ import annotations

import io
import os
import threading
import zipfile
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets._dtype import get_dtype

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


try:
    from PIL import Image  # layout: optional
    available = True
    _import_error: ImportError | None = None
except ImportError as _error:  # pragma: no cover - Pillow is installed in CI
    Image = None  # type: ignore[assignment]  # (Pillow missing: _read_image raises first)
    available = False
    _import_error = _error

__all__ = ['ImageDataset', 'LabeledImageDataset', 'LabeledZippedImageDataset',
           'MultiZippedImageDataset', 'ZippedImageDataset', 'available']


def _check_pillow() -> None:
    if not available:
        raise ImportError(
            'the image datasets need Pillow: pip install chainer-datasets[images] '
            '(or pip install pillow)') from _import_error


def _read_image(source: Any, dtype: numpy.dtype) -> numpy.ndarray:
    """Decode an image (a path or a binary file) into a ``(C, H, W)`` array of ``dtype``."""
    with Image.open(source) as image:
        array = numpy.asarray(image, dtype=dtype)
    if array.ndim == 2:  # greyscale, 16-bit, palette: one channel
        array = array[:, :, None]
    return array.transpose(2, 0, 1)


def _read_list(path: str, columns: int) -> list[list[str]]:
    """The non-empty lines of a text file, split on whitespace into ``columns`` fields.

    Raises:
        ValueError: a line with another number of fields.
    """
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != columns:
                raise ValueError(
                    f'invalid format at line {number} of {path}: expected {columns} '
                    f'field(s) separated by whitespace, got {len(fields)}')
            rows.append(fields)
    return rows


def _read_pairs(pairs: str | Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    if isinstance(pairs, (str, os.PathLike)):
        return [(path, int(label)) for path, label in _read_list(os.fspath(pairs), 2)]
    return [(path, label) for path, label in pairs]


class ImageDataset(DatasetMixin):
    """Dataset of images read from files.

    Args:
        paths: A list of image paths, or the path of a text file listing one per line.
        root: Directory the paths are relative to.
        dtype: dtype of the arrays; ``None`` means Chainer's default float type
            (``chainer.config.dtype``, float32).

    Raises:
        ImportError: Pillow is not installed.
    """

    def __init__(self, paths: str | Sequence[str], root: str = '.',
                 dtype: DTypeSpec | None = None) -> None:
        _check_pillow()
        if isinstance(paths, (str, os.PathLike)):
            paths = [fields[0] for fields in _read_list(os.fspath(paths), 1)]
        self._paths = list(paths)
        self._root = root
        self._dtype = get_dtype(dtype)

    def __len__(self) -> int:
        """Number of images."""
        return len(self._paths)

    def get_example(self, i: int) -> numpy.ndarray:
        """The ``i``-th image, shape ``(C, H, W)``."""
        return _read_image(os.path.join(self._root, self._paths[i]), self._dtype)


class LabeledImageDataset(DatasetMixin):
    """Dataset of ``(image, label)`` pairs read from files.

    Args:
        pairs: A list of ``(path, int label)``, or the path of a text file whose lines
            are ``path label``.
        root: Directory the paths are relative to.
        dtype: dtype of the images; ``None`` means Chainer's default float type.
        label_dtype: dtype of the labels (0-dimensional arrays).

    Raises:
        ImportError: Pillow is not installed.
        ValueError: a line of the list file does not have two fields.
    """

    def __init__(self, pairs: str | Sequence[tuple[str, int]], root: str = '.',
                 dtype: DTypeSpec | None = None, label_dtype: DTypeSpec = numpy.int32) -> None:
        _check_pillow()
        self._pairs = _read_pairs(pairs)
        self._root = root
        self._dtype = get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self) -> int:
        """Number of images."""
        return len(self._pairs)

    def get_example(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The ``i``-th image ``(C, H, W)`` and its label."""
        path, label = self._pairs[i]
        image = _read_image(os.path.join(self._root, path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(DatasetMixin):
    """Dataset of the images stored in a zip archive (every file that is not a folder).

    The archive is opened once per process (forked workers reopen it) and read under a
    lock, so the dataset works with :class:`~chainer.iterators.MultiprocessIterator` and
    :class:`~chainer.iterators.MultithreadIterator`; it pickles as its file name.

    Args:
        zipfilename: Path of the zip archive.
        dtype: dtype of the arrays; ``None`` means Chainer's default float type.

    Raises:
        ImportError: Pillow is not installed.
    """

    def __init__(self, zipfilename: str, dtype: DTypeSpec | None = None) -> None:
        _check_pillow()
        self._zipfilename = zipfilename
        self._dtype = get_dtype(dtype)
        self._lock = threading.Lock()
        self._zf: zipfile.ZipFile | None = None
        self._zf_pid: int | None = None
        self._paths = [name for name in self._archive().namelist() if not name.endswith('/')]

    def _archive(self) -> zipfile.ZipFile:
        pid = os.getpid()
        if self._zf is None or self._zf_pid != pid:
            # A zip file handle shared with a forked parent would share its offset.
            self._lock = threading.Lock()
            self._zf = zipfile.ZipFile(self._zipfilename)
            self._zf_pid = pid
        return self._zf

    def __len__(self) -> int:
        """Number of images."""
        return len(self._paths)

    def read(self, name: str) -> bytes:
        """The raw bytes of the member ``name``."""
        archive = self._archive()
        with self._lock:
            return archive.read(name)

    def get_example(self, i_or_name: int | str) -> numpy.ndarray:
        """The image number ``i`` (or the member named so), shape ``(C, H, W)``."""
        name = i_or_name if isinstance(i_or_name, str) else self._paths[i_or_name]
        return _read_image(io.BytesIO(self.read(name)), self._dtype)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state['_zf'] = None
        state['_zf_pid'] = None
        del state['_lock']
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


class MultiZippedImageDataset(DatasetMixin):
    """The images of several zip archives, one archive after another.

    Args:
        zipfilenames: Paths of the zip archives.
        dtype: dtype of the arrays; ``None`` means Chainer's default float type.

    Raises:
        ImportError: Pillow is not installed.
    """

    def __init__(self, zipfilenames: Sequence[str], dtype: DTypeSpec | None = None) -> None:
        self._datasets = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._ends = numpy.cumsum([len(d) for d in self._datasets])

    def __len__(self) -> int:
        """Total number of images."""
        return int(self._ends[-1]) if len(self._ends) else 0

    def get_example(self, i: int) -> numpy.ndarray:
        """The ``i``-th image over all archives."""
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f'index {i} is out of range for {n} images')
        i %= n
        k = int(numpy.searchsorted(self._ends, i, side='right'))
        start = int(self._ends[k - 1]) if k else 0
        return self._datasets[k].get_example(i - start)


class LabeledZippedImageDataset(DatasetMixin):
    """Dataset of ``(image, label)`` pairs whose images are members of a zip archive.

    Args:
        zipfilename: Path of the zip archive.
        labelfilename: Text file whose lines are ``member_name label``.
        dtype: dtype of the images; ``None`` means Chainer's default float type.
        label_dtype: dtype of the labels (0-dimensional arrays).

    Raises:
        ImportError: Pillow is not installed.
        ValueError: a line of the label file does not have two fields.
    """

    def __init__(self, zipfilename: str, labelfilename: str, dtype: DTypeSpec | None = None,
                 label_dtype: DTypeSpec = numpy.int32) -> None:
        self._images = ZippedImageDataset(zipfilename, dtype)
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype

    def __len__(self) -> int:
        """Number of labeled images."""
        return len(self._pairs)

    def get_example(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The ``i``-th image ``(C, H, W)`` and its label."""
        name, label = self._pairs[i]
        return self._images.get_example(name), numpy.array(label, dtype=self._label_dtype)
