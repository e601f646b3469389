"""Activation functions."""

from chainer.functions.activation.relu import relu
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh

__all__ = ['relu', 'sigmoid', 'tanh']
