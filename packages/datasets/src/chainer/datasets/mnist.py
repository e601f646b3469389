"""The MNIST dataset of handwritten digits (and the IDX format shared by its variants).

Files: ``http://yann.lecun.com/exdb/mnist/{train,t10k}-{images-idx3,labels-idx1}-ubyte.gz``,
downloaded once into the download cache and converted into
``<dataset root>/pfnet/chainer/mnist/{train,test}.npz`` (keys ``x``: uint8 images of shape
``(N, 784)``, ``y``: uint8 labels), Chainer v7's cache layout.
"""

from __future__ import annotations

import functools
import gzip
from typing import TYPE_CHECKING, Any

import numpy

from chainer.dataset import download
from chainer.datasets._dtype import get_dtype
from chainer.datasets._loading import cached_npz, scale_images, with_labels

if TYPE_CHECKING:
    from collections.abc import Mapping

    from chainer.types import DTypeSpec, NdArray


__all__ = ['get_mnist']

_BASE_URL = 'http://yann.lecun.com/exdb/mnist/'
_URLS = {
    'train': (_BASE_URL + 'train-images-idx3-ubyte.gz',
              _BASE_URL + 'train-labels-idx1-ubyte.gz'),
    'test': (_BASE_URL + 't10k-images-idx3-ubyte.gz',
             _BASE_URL + 't10k-labels-idx1-ubyte.gz'),
}


def _read_idx(path: str, kind: str) -> numpy.ndarray:
    """Read a gzipped IDX file of unsigned bytes (``kind`` names it in errors)."""
    with gzip.open(path, 'rb') as f:
        data = f.read()
    if len(data) < 4 or data[:2] != b'\0\0' or data[2] != 0x08:
        raise ValueError(f'{path} is not an IDX file of unsigned bytes ({kind})')
    ndim = data[3]
    header = 4 + 4 * ndim
    shape = tuple(int(n) for n in numpy.frombuffer(data, '>u4', ndim, 4))
    count = int(numpy.prod(shape, dtype=numpy.int64))
    if len(data) - header < count:
        raise ValueError(f'{path} is truncated ({kind}: shape {shape})')
    return numpy.frombuffer(data, numpy.uint8, count, header).reshape(shape)


def make_npz_arrays(urls: tuple[str, str]) -> dict[str, numpy.ndarray]:
    """Download an IDX image file and its label file; return v7's arrays ``x``, ``y``.

    Raises:
        ValueError: not IDX files, or images and labels of different counts.
        chainer.dataset.download.DownloadError: a download failed.
    """
    images = _read_idx(download.cached_download(urls[0]), 'images')
    labels = _read_idx(download.cached_download(urls[1]), 'labels')
    if len(images) != len(labels):
        raise ValueError(f'wrong pair of image and label files: {len(images)} images, '
                         f'{len(labels)} labels ({urls[0]}, {urls[1]})')
    return {'x': images.reshape(len(images), -1).copy(), 'y': labels.copy()}


def preprocess(raw: Mapping[str, NdArray], withlabel: bool, ndim: int, scale: float,
               dtype: DTypeSpec | None, label_dtype: DTypeSpec, rgb_format: bool,
               name: str = 'MNIST') -> Any:
    """Shape and scale the 28x28 images of an MNIST-like dataset as v7 did."""
    images = raw['x']
    if ndim == 2:
        images = images.reshape(-1, 28, 28)
    elif ndim == 3:
        images = images.reshape(-1, 1, 28, 28)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, 28, 28))
    elif ndim != 1:
        raise ValueError(f'invalid ndim for the {name} dataset: {ndim} (1, 2 or 3)')
    images = scale_images(images, scale, get_dtype(dtype))
    return with_labels(images, raw['y'], withlabel, label_dtype)


def load(dataset_name: str, urls: dict[str, tuple[str, str]], withlabel: bool, ndim: int,
         scale: float, dtype: DTypeSpec | None,
         label_dtype: DTypeSpec, rgb_format: bool,
         name: str) -> tuple[Any, Any]:
    """The train and test sets of an MNIST-like dataset stored in IDX files."""
    result = []
    for split in ('train', 'test'):
        raw = cached_npz(dataset_name, f'{split}.npz',
                         functools.partial(make_npz_arrays, urls[split]), numpy)
        result.append(preprocess(raw, withlabel, ndim, scale, dtype, label_dtype,
                                 rgb_format, name))
    return result[0], result[1]


def get_mnist(withlabel: bool = True, ndim: int = 1, scale: float = 1.,
              dtype: DTypeSpec | None = None,
              label_dtype: DTypeSpec = numpy.int32, rgb_format: bool = False) -> tuple[Any, Any]:
    """Get the MNIST dataset (60,000 training and 10,000 test images of digits).

    The files are downloaded on the first call (see the module documentation).

    Args:
        withlabel: Return ``TupleDataset(images, labels)`` instead of the images only.
        ndim: Shape of an image: 1 gives ``(784,)``, 2 ``(28, 28)``, 3 ``(1, 28, 28)``
            (``(3, 28, 28)`` with ``rgb_format``).
        scale: Pixel values go from 0 to ``scale``.
        dtype: dtype of the images; ``None`` means Chainer's default float type.
        label_dtype: dtype of the labels.
        rgb_format: With ``ndim=3``, repeat the grey channel three times.

    Returns:
        ``(train, test)``.

    Raises:
        ValueError: ``ndim`` not 1, 2 or 3.
        chainer.dataset.download.DownloadError: a download failed; the message says
            where to place the file by hand.
    """
    return load('pfnet/chainer/mnist', _URLS, withlabel, ndim, scale, dtype, label_dtype,
                rgb_format, 'MNIST')
