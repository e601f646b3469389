"""Alias of :mod:`chainer.functions.rnn.tree_lstm`, the module's home in Chainer v7."""

from chainer.functions.rnn.tree_lstm import TreeLSTM, tree_lstm  # noqa: F401
