"""Classifier: a predictor wrapped with a loss and an accuracy, both reported."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer import functions, reporter
from chainer.link import Chain, Link
from chainer.utils import numeric_args
from chainer.variable import Variable


class Classifier(Chain):
    """A predictor with a loss function (and accuracy) for classification.

    Calling it with ``(*inputs, t)`` runs ``y = predictor(*inputs)``, computes
    ``loss = lossfun(y, t)`` and, when :attr:`compute_accuracy` is True,
    ``accuracy = accfun(y, t)``; both are reported with :func:`chainer.report`
    under ``'loss'`` and ``'accuracy'``. The loss is returned.

    Args:
        predictor: the predictor link.
        lossfun: the loss function (softmax cross entropy by default).
        accfun: the accuracy function (:func:`chainer.functions.accuracy`).
        label_key: position (int) or keyword (str) of the label among the
            arguments; the last positional argument by default.

    Attributes:
        y: the last prediction.
        loss: the last loss.
        accuracy: the last accuracy.
        compute_accuracy: whether to compute the accuracy.

    Raises:
        TypeError: when ``label_key`` is neither int nor str.

    Example:
        >>> import numpy as np
        >>> import chainer.links as L
        >>> model = L.Classifier(L.Linear(2, 2, initialW=np.eye(2, dtype=np.float32)))
        >>> x = np.array([[1., 0.], [0., 1.]], np.float32)
        >>> t = np.array([0, 0], np.int32)
        >>> loss = model(x, t)
        >>> loss.shape, float(model.accuracy.array)
        ((), 0.5)
    """

    compute_accuracy = True

    def __init__(self, predictor: Link,
                 lossfun: Callable[..., Any] = functions.softmax_cross_entropy,
                 accfun: Callable[..., Any] = functions.accuracy,
                 label_key: int | str = -1) -> None:
        if numeric_args.is_int(label_key):
            label_key = numeric_args.as_int(label_key)  # a NumPy integer as well
        elif not isinstance(label_key, str):
            raise TypeError(f'label_key must be int or str, but is {type(label_key)}')
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y: Any = None
        self.loss: Variable | None = None
        self.accuracy: Variable | None = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args: Any, **kwargs: Any) -> Variable:
        """Predict, compute (and report) the loss and accuracy; return the loss.

        Raises:
            ValueError: when the label is not among the arguments.
        """
        key = self.label_key
        if isinstance(key, int):
            n = len(args)
            if not -n <= key < n:
                raise ValueError(f'Label key {key} is out of bounds')
            t = args[key]
            if key == -1:
                args = args[:-1]
            else:
                i = key % n
                args = args[:i] + args[i + 1:]
        else:
            if key not in kwargs:
                raise ValueError(f'Label key "{key}" is not found')
            kwargs = dict(kwargs)
            t = kwargs.pop(key)

        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
