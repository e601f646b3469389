"""Precision, recall, F-beta score and support per class."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.evaluation.accuracy import expect_scores_and_labels
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


def _fbeta(precision: Any, recall: Any, beta: float) -> Any:
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


class ClassificationSummary(FunctionNode):
    """``(precision, recall, fbeta, support)`` of the arg-max predictions, per class."""

    _type_check_cache_attrs = ()

    def __init__(self, label_num: int | None = None, beta: float = 1.0,
                 ignore_label: int = -1) -> None:
        if label_num is not None and (isinstance(label_num, bool) or label_num < 0):
            raise ValueError(f'label_num must be a non-negative integer or None, got '
                             f'{label_num!r}')
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    @property
    def label(self) -> str:
        return 'ClassificationSummary'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_scores_and_labels(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        y, t = inputs
        xp = backend.get_array_module(y)
        t = t.ravel().astype(numpy.int64, copy=False)
        valid = t != self.ignore_label
        if self.label_num is None:
            # the largest label plus one, ignore_label included (as Chainer 7 counts)
            label_num = max(int(t.max()) + 1, 0) if t.size else 0
        else:
            label_num = int(self.label_num)
        if xp is numpy and bool((t[valid] < 0).any()):
            raise ValueError('labels must be non-negative (or equal to ignore_label '
                             f'{self.ignore_label}); got {t[valid & (t < 0)][:5].tolist()}')
        if y.shape[1] == 0 or t.size == 0:
            pred = xp.full(t.shape, label_num, dtype=numpy.int64)
        else:
            pred = xp.moveaxis(y, 1, -1).reshape(-1, y.shape[1]).argmax(axis=1)
        # Ignored samples and labels beyond label_num fall in the extra bin.
        sink = label_num
        true = xp.where(valid & (t < label_num), t, sink)
        pred = xp.where(valid & (pred < label_num), pred, sink)
        support = xp.bincount(true, minlength=label_num + 1)[:label_num]
        relevant = xp.bincount(pred, minlength=label_num + 1)[:label_num]
        tp = xp.bincount(xp.where(pred == true, true, sink), minlength=label_num + 1)[:label_num]
        # float64 ratios of the integer counts whatever the dtype of y, as in Chainer 7
        with numpy.errstate(divide='ignore', invalid='ignore'):
            precision = tp / relevant.astype(numpy.float64)
            recall = tp / support.astype(numpy.float64)
            fbeta = _fbeta(precision, recall, self.beta)
        return precision, recall, fbeta, support

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return (None,) * len(indexes)


@guarded
def classification_summary(y: VariableOrArray, t: VariableOrArray, label_num: int | None = None,
                           beta: float = 1.0, ignore_label: int = -1) -> tuple[Variable, ...]:
    """Precision, recall, F-beta score and support of each class.

    The prediction is the arg-max of ``y`` over axis 1. For each class ``c``:
    precision ``tp / (tp + fp)``, recall ``tp / (tp + fn)``, the F-beta score
    ``(1 + beta^2) p r / (beta^2 p + r)`` and the support (the number of
    samples labelled ``c``). A ratio whose denominator is 0 is NaN.

    Args:
        y: class scores of shape ``(N, C)`` or ``(N, C, d_1, ..., d_k)``, which
            may have more trailing axes of length 1.
        t: int labels of shape ``(N,)`` or ``(N, d_1, ..., d_k)``, in
            ``[0, label_num)``.
        label_num: the number of classes (None: the largest label in ``t`` plus
            one, ``ignore_label`` included).
        beta: the weight of recall against precision in the F-beta score.
        ignore_label: samples with this label are left out; it must not be a
            valid class.

    Returns:
        ``(precision, recall, fbeta_score, support)``, each of shape
        ``(label_num,)``; the first three are float64 (whatever the dtype of
        ``y``, as in Chainer 7), the support is an integer count. They are not
        differentiable.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
        ValueError: for negative labels other than ``ignore_label``.
    """
    return ClassificationSummary(label_num, beta, ignore_label).apply(
        (as_array(y), as_array(t)))


@guarded
def precision(y: VariableOrArray, t: VariableOrArray, label_num: int | None = None,
              ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class precision and support: see :func:`classification_summary`.

    Returns:
        ``(precision, support)``.
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[0], ret[3]


@guarded
def recall(y: VariableOrArray, t: VariableOrArray, label_num: int | None = None,
           ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class recall and support: see :func:`classification_summary`.

    Returns:
        ``(recall, support)``.
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[1], ret[3]


def fbeta_score(y: VariableOrArray, t: VariableOrArray, label_num: int | None = None,
                beta: float = 1.0, ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class F-beta score and support: see :func:`classification_summary`.

    Returns:
        ``(fbeta_score, support)``.
    """
    ret = classification_summary(y, t, label_num, beta, ignore_label)
    return ret[2], ret[3]


@guarded
def f1_score(y: VariableOrArray, t: VariableOrArray, label_num: int | None = None,
             ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class F1 score (the F-beta score with beta 1) and support.

    Returns:
        ``(f1_score, support)``.
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[2], ret[3]
