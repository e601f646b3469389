"""Differentiable functions (``chainer.functions``, usually imported as ``F``)."""

from chainer.functions.activation.relu import relu
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.array.transpose import transpose
from chainer.functions.connection.linear import linear
from chainer.functions.evaluation.accuracy import accuracy
from chainer.functions.evaluation.binary_accuracy import binary_accuracy
from chainer.functions.loss.mean_squared_error import mean_squared_error
from chainer.functions.loss.sigmoid_cross_entropy import sigmoid_cross_entropy
from chainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy
from chainer.functions.math.average import average, mean
from chainer.functions.math.basic_math import absolute, add
from chainer.functions.math.exponential import exp, log
from chainer.functions.math.matmul import matmul
from chainer.functions.math.sum import sum, sum_to
