"""Dataset abstractions: converters, the iterator protocol, DatasetMixin."""

from chainer.dataset import convert, dataset_mixin, download, iterator, tabular
from chainer.dataset.convert import (
    ConcatWithAsyncTransfer,
    Converter,
    concat_examples,
    converter,
    to_device,
)
from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.dataset.download import (
    cache_or_load_file,
    cached_download,
    get_dataset_directory,
    get_dataset_root,
    set_dataset_root,
)
from chainer.dataset.iterator import Iterator
from chainer.dataset.tabular.tabular_dataset import TabularDataset

__all__ = [
    'ConcatWithAsyncTransfer',
    'Converter',
    'DatasetMixin',
    'Iterator',
    'TabularDataset',
    'cache_or_load_file',
    'cached_download',
    'concat_examples',
    'converter',
    'get_dataset_directory',
    'get_dataset_root',
    'set_dataset_root',
    'to_device',
]
