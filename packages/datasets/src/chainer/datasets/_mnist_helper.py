"""Chainer v7's helpers of the MNIST-like loaders (``chainer.datasets._mnist_helper``).

The loaders of this project (:mod:`chainer.datasets.mnist`) do the same work; these
functions give it under v7's names and signatures.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer.datasets import mnist

__all__ = ['make_npz', 'preprocess_mnist']


def make_npz(path: str, urls: tuple[str, str]) -> dict[str, numpy.ndarray]:
    """Download an IDX image file and its label file, save them to ``path`` and return them.

    Args:
        path: the ``.npz`` file to write (arrays ``x``: images, one flat row each, and
            ``y``: labels, both uint8).
        urls: the URLs of the image file and of the label file (gzip-compressed IDX).

    Raises:
        ValueError: not IDX files, or images and labels of different counts.
        chainer.dataset.download.DownloadError: a download failed.
    """
    arrays = mnist.make_npz_arrays(urls)
    with open(path, 'wb') as f:  # a file object: numpy would append '.npz' to a name
        numpy.savez_compressed(f, x=arrays['x'], y=arrays['y'])
    return arrays


def preprocess_mnist(raw: Any, withlabel: bool, ndim: int, scale: float, image_dtype: Any,
                     label_dtype: Any, rgb_format: bool) -> Any:
    """Shape and scale 28x28 images (``raw['x']``, labels ``raw['y']``) as v7 did.

    Args:
        raw: a mapping with ``x`` (uint8 images, one flat row each) and ``y`` (labels).
        withlabel: return ``TupleDataset(images, labels)`` instead of the images.
        ndim: 1 gives ``(784,)`` images, 2 ``(28, 28)``, 3 ``(1, 28, 28)`` (``(3, 28, 28)``
            with ``rgb_format``).
        scale: pixel values go from 0 to ``scale``.
        image_dtype: dtype of the images (None: Chainer's default float type).
        label_dtype: dtype of the labels.
        rgb_format: with ``ndim=3``, repeat the grey channel three times.

    Raises:
        ValueError: ``ndim`` not 1, 2 or 3.
    """
    return mnist.preprocess(raw, withlabel, ndim, scale, image_dtype, label_dtype, rgb_format)
