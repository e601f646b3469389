"""Trigger that fires at a regular interval of epochs or iterations."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class IntervalTrigger:
    """Fire every ``period`` epochs or iterations.

    With ``unit='iteration'`` the trigger fires on iterations ``period``,
    ``2 * period``, ... With ``unit='epoch'`` it fires at the first iteration
    whose ``epoch_detail`` reaches a multiple of ``period`` (which, when the
    batch size does not divide the dataset, is the iteration that crosses it).

    Args:
        period: The interval, a positive number (may be fractional for epochs).
        unit: ``'epoch'`` or ``'iteration'``.

    Raises:
        ValueError: for an unknown unit or a non-positive period.

    Example:
        >>> import tempfile
        >>> import numpy as np
        >>> import chainer.links as L
        >>> from chainer import datasets, iterators, optimizers, training
        >>> x = np.eye(4, 2, dtype=np.float32)
        >>> t = np.array([0, 1, 0, 1], np.int32)
        >>> ds = datasets.TupleDataset(x, t)
        >>> model = L.Classifier(L.Linear(2, 2))
        >>> opt = optimizers.SGD()
        >>> opt.setup(model)
        <chainer.optimizers.sgd.SGD object at 0x...>
        >>> it = iterators.SerialIterator(ds, batch_size=2, shuffle=False)
        >>> updater = training.updaters.StandardUpdater(it, opt)
        >>> from chainer.training import triggers
        >>> trigger = triggers.IntervalTrigger(2, 'iteration')
        >>> with tempfile.TemporaryDirectory() as out:
        ...     trainer = training.Trainer(updater, (6, 'iteration'), out=out)
        ...     trainer.extend(lambda t: print(t.updater.iteration), trigger=trigger)
        ...     trainer.run()
        2
        4
        6
    """

    def __init__(self, period: float, unit: str) -> None:
        if unit not in ('epoch', 'iteration'):
            raise ValueError(f"trigger unit must be 'epoch' or 'iteration', got {unit!r}")
        if not period > 0:
            raise ValueError(f'trigger period must be positive, got {period!r}')
        self.period = py_number(period)  # numpy.int64(5) as 5
        self.unit = unit
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.0
        self.count = 0

    def __call__(self, trainer: Trainer) -> bool:
        """Return whether the interval boundary was crossed since the last call."""
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:  # restored from a snapshot that lacked the value
                before = updater.previous_epoch_detail
                previous = current if before is None else before
            self.count = current // self.period
            fire = previous // self.period != current // self.period
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
            fire = previous // self.period != current // self.period
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def get_training_length(self) -> tuple[float, str]:
        """Return ``(period, unit)``, read by ``ProgressBar`` from a stop trigger."""
        return self.period, self.unit

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the iteration and epoch seen at the last call."""
        try:
            self._previous_iteration = serializer('previous_iteration', self._previous_iteration)
        except KeyError:
            warnings.warn('IntervalTrigger: previous_iteration missing from the snapshot')
            self._previous_iteration = -1
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail
            )
        except KeyError:
            warnings.warn('IntervalTrigger: previous_epoch_detail missing from the snapshot')
            self._previous_epoch_detail = -1.0

    def __str__(self) -> str:
        return f'IntervalTrigger({self.period}, {self.unit!r})'
