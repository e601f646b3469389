"""The Fashion-MNIST dataset (Zalando's 28x28 greyscale images of clothes, 10 classes).

Files: ``http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/`` (IDX, as MNIST),
cached as ``<dataset root>/pfnet/chainer/fashion-mnist/{train,test}.npz``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.datasets import mnist

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


__all__ = ['get_fashion_mnist', 'get_fashion_mnist_labels']

_BASE_URL = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'
_URLS = {
    'train': (_BASE_URL + 'train-images-idx3-ubyte.gz',
              _BASE_URL + 'train-labels-idx1-ubyte.gz'),
    'test': (_BASE_URL + 't10k-images-idx3-ubyte.gz',
             _BASE_URL + 't10k-labels-idx1-ubyte.gz'),
}
_LABELS = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt',
           'Sneaker', 'Bag', 'Ankle boot')


def get_fashion_mnist_labels() -> list[str]:
    """The names of the ten classes, indexed by label."""
    return list(_LABELS)


def get_fashion_mnist(withlabel: bool = True, ndim: int = 1, scale: float = 1.,
                      dtype: DTypeSpec | None = None, label_dtype: DTypeSpec = numpy.int32,
                      rgb_format: bool = False) -> tuple[Any, Any]:
    """Get the Fashion-MNIST dataset (60,000 training and 10,000 test images).

    Same arguments, return value and errors as :func:`chainer.datasets.get_mnist`.
    """
    return mnist.load('pfnet/chainer/fashion-mnist', _URLS, withlabel, ndim, scale, dtype,
                      label_dtype, rgb_format, 'Fashion-MNIST')
