"""Datasets for multi-node training: scattering a dataset, empty placeholder datasets."""

from chainermn.datasets import scatter
from chainermn.datasets.empty_dataset import create_empty_dataset
from chainermn.datasets.scatter import DataSizeError, scatter_dataset, scatter_index
