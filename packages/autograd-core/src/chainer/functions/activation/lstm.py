"""Alias of :mod:`chainer.functions.rnn.lstm`, the module's home in Chainer v7."""

from chainer.functions.rnn.lstm import LSTM, lstm  # noqa: F401
