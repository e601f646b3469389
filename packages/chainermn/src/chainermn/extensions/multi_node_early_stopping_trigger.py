"""Early stopping on a value averaged over all processes."""

from __future__ import annotations

import math
from typing import Any

import numpy

from chainer import reporter as reporter_module
from chainer.training.util import get_trigger


class MultiNodeEarlyStoppingTrigger:
    """Stop trigger that ends training when the mean of ``monitor`` over all processes
    has not improved for ``patience`` checks; every process stops at the same time.

    Every call accumulates ``trainer.observation[monitor]``; at each ``check_trigger``
    each process's mean is averaged over the processes (an allreduce: every process
    calls the trigger together) and compared with the best so far.

    Args:
        comm: a ChainerMN communicator.
        check_trigger: when to compare (default ``(1, 'epoch')``).
        monitor: the observation key (default ``'main/loss'``).
        patience: checks without improvement before stopping (default 3).
        mode: ``'min'``, ``'max'`` or ``'auto'`` (``'max'`` when the key contains
            ``'accuracy'``).
        verbose: print a line on rank 0 when stopping early.
        max_trigger: the longest training (default ``(100, 'epoch')``).

    Raises:
        ValueError: for an unknown mode or a patience below 1.
    """

    def __init__(self, comm: Any, check_trigger: Any = (1, 'epoch'),
                 monitor: str = 'main/loss', patience: int = 3, mode: str = 'auto',
                 verbose: bool = False, max_trigger: Any = (100, 'epoch')) -> None:
        if patience < 1:
            raise ValueError(f'patience must be at least 1, got {patience}')
        if mode == 'auto':
            mode = 'max' if 'accuracy' in monitor else 'min'
        if mode not in ('min', 'max'):
            raise ValueError(f"mode must be 'min', 'max' or 'auto', got {mode!r}")
        self.comm = comm
        self.monitor = monitor
        self.patience = patience
        self.mode = mode
        self.verbose = verbose
        self.count = 0
        self.best = -math.inf if mode == 'max' else math.inf
        self.check_trigger = get_trigger(check_trigger)
        self.max_trigger = get_trigger(max_trigger)
        self._summary = reporter_module.DictSummary()

    def __call__(self, trainer: Any) -> bool:
        """Whether training should stop now."""
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self.max_trigger(trainer):
            return True
        if not self.check_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter_module.DictSummary()
        local = numpy.zeros(2)
        if self.monitor in stats:
            local[:] = float(stats[self.monitor]), 1.0
        total = self.comm.allreduce(local)
        if total[1] == 0:
            return False
        value = total[0] / total[1]
        if value > self.best if self.mode == 'max' else value < self.best:
            self.best = value
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose and self.comm.rank == 0:
                print(f'Epoch {trainer.updater.epoch}: early stopping')
            return True
        return False

    def get_training_length(self) -> tuple[float, str]:
        """The length of ``max_trigger`` (for ``ProgressBar``)."""
        return self.max_trigger.get_training_length()

    def serialize(self, serializer: Any) -> None:
        """Save or load the sub-triggers, the running mean, the best value and the count."""
        for name in ('check_trigger', 'max_trigger'):
            trigger = getattr(self, name)
            if hasattr(trigger, 'serialize'):
                trigger.serialize(serializer[name])
        self._summary.serialize(serializer['summary'])
        self.best = float(serializer('best', self.best))
        self.count = int(serializer('count', self.count))
