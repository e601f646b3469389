"""The SVHN dataset (Street View House Numbers: 32x32 colour images of digits).

Files: ``http://ufldl.stanford.edu/housenumbers/{train,test,extra}_32x32.mat`` (MATLAB
files, read with SciPy: ``pip install chainer-datasets[svhn]``), downloaded once and
converted into ``<dataset root>/pfnet/chainer/svhn/{train,test,extra}.npz`` (keys ``x``:
uint8 images as stored in the file, shape ``(32, 32, 3, N)``; ``y``: uint8 labels of
shape ``(N, 1)`` where 10 stands for the digit 0), Chainer v7's cache layout.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy

from chainer.dataset import download
from chainer.datasets._dtype import get_dtype
from chainer.datasets._loading import cached_npz, scale_images, with_labels

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


__all__ = ['get_svhn']

_URL = 'http://ufldl.stanford.edu/housenumbers/{}_32x32.mat'


def _make_arrays(split: str) -> dict[str, numpy.ndarray]:
    try:
        from scipy import io as scipy_io  # layout: optional
    except ImportError as exc:
        raise ImportError('get_svhn needs SciPy to read the .mat files: '
                          'pip install chainer-datasets[svhn] (or pip install scipy)') from exc
    path = download.cached_download(_URL.format(split))
    content = scipy_io.loadmat(path)
    if 'X' not in content or 'y' not in content:
        raise ValueError(f'{path} has no X and y arrays: not an SVHN file')
    return {'x': content['X'].astype(numpy.uint8), 'y': content['y'].astype(numpy.uint8)}


def _preprocess(raw: Any, withlabel: bool, scale: float, dtype: DTypeSpec | None,
                label_dtype: DTypeSpec) -> Any:
    images = scale_images(raw['x'].transpose(3, 2, 0, 1), scale, get_dtype(dtype))
    labels = raw['y'].astype(label_dtype).flatten()
    labels[labels == 10] = 0  # the files label the digit 0 as 10
    return with_labels(images, labels, withlabel, label_dtype)


def get_svhn(withlabel: bool = True, scale: float = 1., dtype: DTypeSpec | None = None,
             label_dtype: DTypeSpec = numpy.int32, add_extra: bool = False) -> tuple[Any, ...]:
    """Get the SVHN dataset (73,257 training and 26,032 test images of digits).

    The files are downloaded on the first call (see the module documentation).

    Args:
        withlabel: Return ``TupleDataset(images, labels)`` instead of the images only.
        scale: Pixel values go from 0 to ``scale``.
        dtype: dtype of the images, of shape ``(3, 32, 32)``; ``None`` means Chainer's
            default float type.
        label_dtype: dtype of the labels (0 to 9).
        add_extra: Also return the 531,131 "extra" images.

    Returns:
        ``(train, test)``, or ``(train, test, extra)`` with ``add_extra``.

    Raises:
        ImportError: SciPy is not installed (needed for the first download only).
        chainer.dataset.download.DownloadError: a download failed; the message says
            where to place the file by hand.
    """
    splits = ('train', 'test', 'extra') if add_extra else ('train', 'test')
    return tuple(
        _preprocess(cached_npz('pfnet/chainer/svhn', f'{split}.npz',
                               functools.partial(_make_arrays, split), numpy),
                    withlabel, scale, dtype, label_dtype)
        for split in splits)
