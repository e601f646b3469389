"""Evaluation functions (metrics)."""

from chainer.functions.evaluation.accuracy import accuracy
from chainer.functions.evaluation.binary_accuracy import binary_accuracy

__all__ = ['accuracy', 'binary_accuracy']
