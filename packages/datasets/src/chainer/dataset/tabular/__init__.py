"""Tabular datasets: columns with names, read many examples and columns at once."""

from chainer.dataset.tabular import delegate_dataset, tabular_dataset
from chainer.dataset.tabular._from_data import from_data
from chainer.dataset.tabular.delegate_dataset import DelegateDataset
from chainer.dataset.tabular.tabular_dataset import TabularDataset

__all__ = ['DelegateDataset', 'TabularDataset', 'delegate_dataset', 'from_data',
           'tabular_dataset']
