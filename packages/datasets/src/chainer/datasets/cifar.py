"""The CIFAR-10 and CIFAR-100 datasets (32x32 colour images; 10 or 100 classes).

Files: ``https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz`` and
``cifar-100-python.tar.gz`` (pickled dicts of arrays inside a tar.gz), downloaded once
and converted into ``<dataset root>/pfnet/chainer/cifar/cifar-10.npz`` (or
``cifar-100.npz``; keys ``train_x``, ``train_y``, ``test_x``, ``test_y``: uint8 images of
shape ``(N, 3072)`` and uint8 labels), Chainer v7's cache layout.

The pickles are read with a restricted unpickler that only builds builtin containers and
NumPy arrays (see :mod:`chainer.datasets._safe_pickle`): a tampered download cannot run
code.
"""

from __future__ import annotations

import os
import tarfile
from typing import TYPE_CHECKING, Any

import numpy

from chainer.dataset import download
from chainer.datasets import _safe_pickle
from chainer.datasets._dtype import get_dtype
from chainer.datasets._loading import cached_npz, scale_images, with_labels

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


__all__ = ['get_cifar10', 'get_cifar100']

_URL = 'https://www.cs.toronto.edu/~kriz/{}-python.tar.gz'


def _member(archive: tarfile.TarFile, name: str) -> dict[str, Any]:
    try:
        f = archive.extractfile(name)
    except KeyError:
        f = None
    if f is None:
        where = 'the archive' if archive.name is None else os.fsdecode(archive.name)
        raise ValueError(f'{where} has no file {name}: not a CIFAR archive')
    with f:
        content = _safe_pickle.load(f)
    return {k.decode('latin1') if isinstance(k, bytes) else k: v for k, v in content.items()}


def _images_and_labels(content: dict[str, Any], label_key: str) -> tuple[Any, Any]:
    images = numpy.asarray(content['data'], dtype=numpy.uint8).reshape(-1, 3072)
    labels = numpy.asarray(content[label_key], dtype=numpy.uint8)
    return images, labels


def _make_arrays(name: str) -> dict[str, numpy.ndarray]:
    path = download.cached_download(_URL.format(name))
    with tarfile.open(path, 'r:gz') as archive:
        if name == 'cifar-10':
            parts = [_images_and_labels(
                _member(archive, f'cifar-10-batches-py/data_batch_{i}'), 'labels')
                for i in range(1, 6)]
            train_x = numpy.concatenate([x for x, _ in parts])
            train_y = numpy.concatenate([y for _, y in parts])
            test_x, test_y = _images_and_labels(
                _member(archive, 'cifar-10-batches-py/test_batch'), 'labels')
        else:
            train_x, train_y = _images_and_labels(
                _member(archive, 'cifar-100-python/train'), 'fine_labels')
            test_x, test_y = _images_and_labels(
                _member(archive, 'cifar-100-python/test'), 'fine_labels')
    return {'train_x': train_x, 'train_y': train_y, 'test_x': test_x, 'test_y': test_y}


def _preprocess(images: numpy.ndarray, labels: numpy.ndarray, withlabel: bool, ndim: int,
                scale: float, dtype: DTypeSpec | None) -> Any:
    if ndim == 1:
        images = images.reshape(-1, 3072)
    elif ndim == 3:
        images = images.reshape(-1, 3, 32, 32)
    else:
        raise ValueError(f'invalid ndim for the CIFAR dataset: {ndim} (1 or 3)')
    return with_labels(scale_images(images, scale, get_dtype(dtype)), labels, withlabel,
                       numpy.int32)


def _get(name: str, withlabel: bool, ndim: int, scale: float,
         dtype: DTypeSpec | None) -> tuple[Any, Any]:
    raw = cached_npz('pfnet/chainer/cifar', f'{name}.npz', lambda: _make_arrays(name), numpy)
    train = _preprocess(raw['train_x'], raw['train_y'], withlabel, ndim, scale, dtype)
    test = _preprocess(raw['test_x'], raw['test_y'], withlabel, ndim, scale, dtype)
    return train, test


def get_cifar10(withlabel: bool = True, ndim: int = 3, scale: float = 1.,
                dtype: DTypeSpec | None = None) -> tuple[Any, Any]:
    """Get the CIFAR-10 dataset (50,000 training and 10,000 test images, 10 classes).

    The archive is downloaded on the first call (see the module documentation).

    Args:
        withlabel: Return ``TupleDataset(images, labels)`` (int32 labels) instead of
            the images only.
        ndim: Shape of an image: 1 gives ``(3072,)``, 3 gives ``(3, 32, 32)``.
        scale: Pixel values go from 0 to ``scale``.
        dtype: dtype of the images; ``None`` means Chainer's default float type.

    Returns:
        ``(train, test)``.

    Raises:
        ValueError: ``ndim`` not 1 or 3, or the archive is not a CIFAR archive.
        pickle.UnpicklingError: the archive's pickles hold more than arrays.
        chainer.dataset.download.DownloadError: the download failed; the message says
            where to place the file by hand.
    """
    return _get('cifar-10', withlabel, ndim, scale, dtype)


def get_cifar100(withlabel: bool = True, ndim: int = 3, scale: float = 1.,
                 dtype: DTypeSpec | None = None) -> tuple[Any, Any]:
    """Get the CIFAR-100 dataset (50,000 training and 10,000 test images; the labels are
    the 100 fine classes).

    Same arguments, return value and errors as :func:`get_cifar10`.
    """
    return _get('cifar-100', withlabel, ndim, scale, dtype)
