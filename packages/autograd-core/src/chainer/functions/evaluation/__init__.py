"""Evaluation functions (metrics)."""

from chainer.functions.evaluation.accuracy import accuracy
from chainer.functions.evaluation.binary_accuracy import binary_accuracy
from chainer.functions.evaluation.classification_summary import (
    classification_summary,
    f1_score,
    precision,
    recall,
)
from chainer.functions.evaluation.r2_score import r2_score

__all__ = ['accuracy', 'binary_accuracy', 'classification_summary', 'f1_score', 'precision',
           'r2_score', 'recall']
