"""Stop trigger that ends training when a monitored value stops improving."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any

from chainer import reporter as reporter_module
from chainer.training.util import TriggerSpec, get_trigger

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class EarlyStoppingTrigger:
    """Stop when ``monitor`` has not improved for ``patience`` checks.

    Use it as the trainer's ``stop_trigger``. Every call accumulates
    ``trainer.observation[monitor]``; at each ``check_trigger`` the mean is
    compared with the best so far. Training also stops at ``max_trigger``.

    Args:
        check_trigger: When to compare; ``(1, 'epoch')`` by default.
        monitor: The observation key to watch (``'main/loss'``).
        patience: Number of checks without improvement before stopping (3
            when ``None``). The misspelled keyword ``patients`` is accepted.
        mode: ``'min'``, ``'max'`` or ``'auto'`` (``'max'`` when the key
            contains ``'accuracy'``, else ``'min'``).
        verbose: Print a line when stopping early.
        max_trigger: Upper bound of the training; ``(100, 'epoch')`` by default.

    Raises:
        ValueError: for an unknown mode or a non-positive patience.
        TypeError: for an unknown keyword argument, or both ``patience`` and
            ``patients``.
    """

    def __init__(
        self,
        check_trigger: TriggerSpec = (1, 'epoch'),
        monitor: str = 'main/loss',
        patience: int | None = None,
        mode: str = 'auto',
        verbose: bool = False,
        max_trigger: TriggerSpec = (100, 'epoch'),
        **kwargs: Any,
    ) -> None:
        patients = kwargs.pop('patients', None)
        if kwargs:
            raise TypeError(
                f'EarlyStoppingTrigger got unexpected keyword arguments: {sorted(kwargs)}'
            )
        if patients is not None:
            if patience is not None:
                raise TypeError('EarlyStoppingTrigger takes patience or its alias patients, '
                                'not both')
            patience = patients
        if patience is None:
            patience = 3
        if patience <= 0:
            raise ValueError(f'patience must be positive, got {patience}')
        if mode == 'auto':
            mode = 'max' if 'accuracy' in monitor else 'min'
        if mode not in ('min', 'max'):
            raise ValueError(f"mode must be 'min', 'max' or 'auto', got {mode!r}")
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.mode = mode
        self.best = -math.inf if mode == 'max' else math.inf
        self.check_trigger = get_trigger(check_trigger)
        self.max_trigger = get_trigger(max_trigger)
        self._summary = reporter_module.DictSummary()

    def _improved(self, value: float) -> bool:
        return value > self.best if self.mode == 'max' else value < self.best

    def __call__(self, trainer: Trainer) -> bool:
        """Return whether training should stop now."""
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self.max_trigger(trainer):
            return True
        if not self.check_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter_module.DictSummary()
        value = self._checked_value(stats)
        if value is None:
            return False
        if self._improved(value):
            self.best = value
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose and self._reports():
                print(f'Epoch {trainer.updater.epoch}: early stopping')
            return True
        return False

    def _checked_value(self, stats: dict[str, Any]) -> float | None:
        """The value compared at a check: the mean of ``monitor`` since the last one.

        ``None`` (no comparison, with a warning) when ``monitor`` was not reported.
        Subclasses override it to combine the means of several processes.
        """
        if self.monitor not in stats:
            warnings.warn(f'EarlyStoppingTrigger: {self.monitor!r} was not reported')
            return None
        return float(stats[self.monitor])

    def _reports(self) -> bool:
        """Whether this trigger prints the ``verbose`` line (every process here)."""
        return True

    def get_training_length(self) -> tuple[float, str]:
        """Return the length of ``max_trigger`` (for ``ProgressBar``).

        Raises:
            TypeError: ``max_trigger`` (e.g. a plain function) cannot tell its length.
        """
        getter = getattr(self.max_trigger, 'get_training_length', None)
        if getter is None:
            raise TypeError(f'EarlyStoppingTrigger: max_trigger {self.max_trigger!r} has no '
                            'get_training_length; give ProgressBar training_length=')
        return getter()

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the sub-triggers, the running mean, the best value and the count."""
        for name in ('check_trigger', 'max_trigger'):
            trigger = getattr(self, name)
            if hasattr(trigger, 'serialize'):
                trigger.serialize(serializer[name])
        self._summary.serialize(serializer['summary'])
        self.best = float(serializer('best', self.best))
        self.count = int(serializer('count', self.count))
