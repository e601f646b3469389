"""Dataset classes, dataset splitting utilities and downloadable datasets."""

from chainer.datasets import (  # _mnist_helper: v7's module path, reached as an attribute
    _mnist_helper,
    cifar,
    concatenated_dataset,
    dict_dataset,
    fashion_mnist,
    image_dataset,
    kuzushiji_mnist,
    mnist,
    pickle_dataset,
    ptb,
    sub_dataset,
    svhn,
    text_dataset,
    transform_dataset,
    tuple_dataset,
)
from chainer.datasets.cifar import get_cifar10, get_cifar100
from chainer.datasets.concatenated_dataset import ConcatenatedDataset
from chainer.datasets.dict_dataset import DictDataset
from chainer.datasets.fashion_mnist import get_fashion_mnist, get_fashion_mnist_labels
from chainer.datasets.image_dataset import (
    ImageDataset,
    LabeledImageDataset,
    LabeledZippedImageDataset,
    MultiZippedImageDataset,
    ZippedImageDataset,
)
from chainer.datasets.kuzushiji_mnist import get_kuzushiji_mnist, get_kuzushiji_mnist_labels
from chainer.datasets.mnist import get_mnist
from chainer.datasets.pickle_dataset import (
    PickleDataset,
    PickleDatasetWriter,
    open_pickle_dataset,
    open_pickle_dataset_writer,
)
from chainer.datasets.ptb import get_ptb_words, get_ptb_words_vocabulary
from chainer.datasets.sub_dataset import (
    SubDataset,
    get_cross_validation_datasets,
    get_cross_validation_datasets_random,
    split_dataset,
    split_dataset_n,
    split_dataset_n_random,
    split_dataset_random,
)
from chainer.datasets.svhn import get_svhn
from chainer.datasets.text_dataset import TextDataset
from chainer.datasets.transform_dataset import TransformDataset
from chainer.datasets.tuple_dataset import TupleDataset

__all__ = [
    'ConcatenatedDataset',
    'DictDataset',
    'ImageDataset',
    'LabeledImageDataset',
    'LabeledZippedImageDataset',
    'MultiZippedImageDataset',
    'PickleDataset',
    'PickleDatasetWriter',
    'SubDataset',
    'TextDataset',
    'TransformDataset',
    'TupleDataset',
    'ZippedImageDataset',
    'cifar',
    'concatenated_dataset',
    'dict_dataset',
    'fashion_mnist',
    'get_cifar10',
    'get_cifar100',
    'get_cross_validation_datasets',
    'get_cross_validation_datasets_random',
    'get_fashion_mnist',
    'get_fashion_mnist_labels',
    'get_kuzushiji_mnist',
    'get_kuzushiji_mnist_labels',
    'get_mnist',
    'get_ptb_words',
    'get_ptb_words_vocabulary',
    'get_svhn',
    'image_dataset',
    'kuzushiji_mnist',
    'mnist',
    'open_pickle_dataset',
    'open_pickle_dataset_writer',
    'pickle_dataset',
    'ptb',
    'split_dataset',
    'split_dataset_n',
    'split_dataset_n_random',
    'split_dataset_random',
    'sub_dataset',
    'svhn',
    'text_dataset',
    'transform_dataset',
    'tuple_dataset',
]
