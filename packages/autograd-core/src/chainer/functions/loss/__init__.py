"""Loss functions."""

from chainer.functions.loss.absolute_error import absolute_error
from chainer.functions.loss.contrastive import contrastive
from chainer.functions.loss.hinge import hinge
from chainer.functions.loss.huber_loss import huber_loss
from chainer.functions.loss.mean_absolute_error import mean_absolute_error
from chainer.functions.loss.mean_squared_error import mean_squared_error
from chainer.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy
from chainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy
from chainer.functions.loss.squared_error import squared_error
from chainer.functions.loss.triplet import triplet

__all__ = [
    'absolute_error',
    'contrastive',
    'hinge',
    'huber_loss',
    'mean_absolute_error',
    'mean_squared_error',
    'sigmoid_cross_entropy',
    'softmax_cross_entropy',
    'squared_error',
    'triplet',
]
