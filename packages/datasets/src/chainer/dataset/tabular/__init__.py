"""Tabular datasets: columns with names, read many examples and columns at once."""

# The operations' modules are loaded with the package: v7 code reaches them as attributes
# (chainer.dataset.tabular._concat); they are small.
from chainer.dataset.tabular import (
    _concat,
    _join,
    _slice,
    _transform,
    _with_converter,
    delegate_dataset,
    tabular_dataset,
)
from chainer.dataset.tabular.delegate_dataset import DelegateDataset

# the function shadows its module, as in v7 (the module is imported first, then rebound)
from chainer.dataset.tabular.from_data import from_data
from chainer.dataset.tabular.tabular_dataset import TabularDataset

__all__ = ['DelegateDataset', 'TabularDataset', 'delegate_dataset', 'from_data',
           'tabular_dataset']
