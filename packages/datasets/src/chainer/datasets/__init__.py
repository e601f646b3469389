"""Dataset classes and dataset splitting utilities."""

from chainer.datasets.concatenated_dataset import ConcatenatedDataset
from chainer.datasets.dict_dataset import DictDataset
from chainer.datasets.sub_dataset import (
    SubDataset,
    split_dataset,
    split_dataset_n,
    split_dataset_n_random,
    split_dataset_random,
)
from chainer.datasets.transform_dataset import TransformDataset
from chainer.datasets.tuple_dataset import TupleDataset

__all__ = [
    'ConcatenatedDataset',
    'DictDataset',
    'SubDataset',
    'TransformDataset',
    'TupleDataset',
    'split_dataset',
    'split_dataset_n',
    'split_dataset_n_random',
    'split_dataset_random',
]
