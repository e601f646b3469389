"""Loss functions."""

from chainer.functions.loss.mean_squared_error import mean_squared_error
from chainer.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy
from chainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy

__all__ = ['mean_squared_error', 'sigmoid_cross_entropy', 'softmax_cross_entropy']
