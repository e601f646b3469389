"""The Kuzushiji-MNIST dataset (28x28 images of ten cursive Japanese hiragana).

Files: ``http://codh.rois.ac.jp/kmnist/dataset/kmnist/`` (IDX, as MNIST), cached as
``<dataset root>/pfnet/chainer/kuzushiji_mnist/{train,test}.npz``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.datasets import mnist

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


__all__ = ['get_kuzushiji_mnist', 'get_kuzushiji_mnist_labels']

_BASE_URL = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'
_URLS = {
    'train': (_BASE_URL + 'train-images-idx3-ubyte.gz',
              _BASE_URL + 'train-labels-idx1-ubyte.gz'),
    'test': (_BASE_URL + 't10k-images-idx3-ubyte.gz',
             _BASE_URL + 't10k-labels-idx1-ubyte.gz'),
}
_LABELS = (('o', '\u304a'), ('ki', '\u304d'), ('su', '\u3059'), ('tsu', '\u3064'),
           ('na', '\u306a'), ('ha', '\u306f'), ('ma', '\u307e'), ('ya', '\u3084'),
           ('re', '\u308c'), ('wo', '\u3092'))


def get_kuzushiji_mnist_labels() -> list[tuple[str, str]]:
    """The ten classes as ``(romanization, hiragana)``, indexed by label."""
    return list(_LABELS)


def get_kuzushiji_mnist(withlabel: bool = True, ndim: int = 1, scale: float = 1.,
                        dtype: DTypeSpec | None = None, label_dtype: DTypeSpec = numpy.int32,
                        rgb_format: bool = False) -> tuple[Any, Any]:
    """Get the Kuzushiji-MNIST dataset (60,000 training and 10,000 test images).

    Same arguments, return value and errors as :func:`chainer.datasets.get_mnist`.
    """
    return mnist.load('pfnet/chainer/kuzushiji_mnist', _URLS, withlabel, ndim, scale, dtype,
                      label_dtype, rgb_format, 'Kuzushiji-MNIST')
