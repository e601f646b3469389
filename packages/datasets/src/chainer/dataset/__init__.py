"""Dataset abstractions: converters, the iterator protocol, DatasetMixin."""

from chainer.dataset import convert, dataset_mixin, iterator
from chainer.dataset.convert import Converter, concat_examples, converter, to_device
from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.dataset.iterator import Iterator

__all__ = [
    'Converter',
    'DatasetMixin',
    'Iterator',
    'concat_examples',
    'converter',
    'to_device',
]
