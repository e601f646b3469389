"""Helpers of the downloadable datasets: cached ``.npz`` files and image preprocessing."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy

from chainer.dataset import download
from chainer.datasets.tuple_dataset import TupleDataset


def cached_npz(dataset_name: str, file_name: str,
               create: Callable[[], dict[str, numpy.ndarray]], np: Any = numpy) -> Any:
    """Load ``<root>/<dataset_name>/<file_name>``, making it with ``create`` first if needed.

    ``create()`` returns the arrays to store (``numpy.savez_compressed``, v7's format).
    ``np`` is the NumPy module to save and load with: a loader passes the ``numpy`` of
    its own module, so that code patching ``chainer.datasets.<loader>.numpy`` (as v7's
    tests do) sees the calls.

    Returns:
        What ``np.load`` returns, or the created arrays.
    """
    root = download.get_dataset_directory(dataset_name)
    path = os.path.join(root, file_name)

    def creator(temporary_path: str) -> dict[str, numpy.ndarray]:
        arrays = create()
        with open(temporary_path, 'wb') as f:  # savez_compressed would append '.npz'
            np.savez_compressed(f, **arrays)
        return arrays

    return download.cache_or_load_file(path, creator, np.load)


def scale_images(images: numpy.ndarray, scale: float, dtype: numpy.dtype) -> numpy.ndarray:
    """``uint8`` pixels as ``dtype`` in ``[0, scale]``: ``images.astype(dtype) * (scale / 255)``.

    The multiplication is done in place in ``dtype``, as in Chainer v7, so the values are
    bit for bit v7's.
    """
    images = images.astype(dtype)
    images *= scale / 255.
    return images


def with_labels(images: numpy.ndarray, labels: numpy.ndarray, withlabel: bool,
                label_dtype: Any) -> Any:
    """``TupleDataset(images, labels)`` or just ``images``."""
    if withlabel:
        return TupleDataset(images, labels.astype(label_dtype))
    return images
