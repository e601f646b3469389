"""Mathematical functions."""

from chainer.functions.math.average import average, mean
from chainer.functions.math.basic_math import absolute, add
from chainer.functions.math.exponential import exp, log
from chainer.functions.math.matmul import matmul
from chainer.functions.math.sum import sum, sum_to

__all__ = ['absolute', 'add', 'average', 'exp', 'log', 'matmul', 'mean', 'sum', 'sum_to']
