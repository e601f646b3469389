"""Activation functions."""

from chainer.functions.activation.clipped_relu import clipped_relu
from chainer.functions.activation.crelu import crelu
from chainer.functions.activation.elu import elu
from chainer.functions.activation.hard_sigmoid import hard_sigmoid
from chainer.functions.activation.leaky_relu import leaky_relu
from chainer.functions.activation.log_softmax import log_softmax
from chainer.functions.activation.lstm import lstm
from chainer.functions.activation.maxout import maxout
from chainer.functions.activation.prelu import prelu
from chainer.functions.activation.relu import relu
from chainer.functions.activation.relu6 import relu6
from chainer.functions.activation.rrelu import rrelu
from chainer.functions.activation.selu import selu
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.slstm import slstm
from chainer.functions.activation.softmax import softmax
from chainer.functions.activation.softplus import softplus
from chainer.functions.activation.swish import swish
from chainer.functions.activation.tanh import tanh
from chainer.functions.activation.tree_lstm import tree_lstm

__all__ = [
    'clipped_relu', 'crelu', 'elu', 'hard_sigmoid', 'leaky_relu', 'log_softmax', 'lstm',
    'maxout', 'prelu', 'relu', 'relu6', 'rrelu', 'selu', 'sigmoid', 'slstm', 'softmax',
    'softplus', 'swish', 'tanh', 'tree_lstm',
]
