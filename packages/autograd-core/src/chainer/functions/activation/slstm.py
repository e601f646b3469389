"""Alias of :mod:`chainer.functions.rnn.slstm`, the module's home in Chainer v7."""

from chainer.functions.rnn.slstm import SLSTM, slstm  # noqa: F401
