"""Shared bookkeeping of the reports that average observations between triggers."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from chainer import reporter as reporter_module
from chainer.training import extension
from chainer.training.util import get_trigger

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class _SummaryReport(extension.Extension):
    """Base of ``LogReport`` and ``PlotReport``: the running means of observed values.

    :meth:`_observe`, called every iteration, adds the observation to the
    summary and returns the means when the report's trigger fires; the
    subclass uses them, then starts a new summary with :meth:`_init_summary`.
    """

    def _init_report(self, keys: list[str] | None, trigger: Any) -> None:
        """Observe ``keys`` (every key when ``None``) until ``trigger`` fires."""
        self._keys = keys
        self._trigger = get_trigger(trigger)
        self._init_summary()

    def _init_summary(self) -> None:
        self._summary = reporter_module.DictSummary()

    def _observe(self, trainer: Trainer) -> dict[str, float] | None:
        """Add the trainer's observation; the means (floats) when the report is due.

        The report is due when its trigger fires, and also on a call made before the
        first iteration (an extension registered with ``call_before_training=True``):
        as in v7, that call's observations (e.g. an evaluation of the untrained model)
        make an entry of their own at iteration 0 instead of being averaged into the
        first epoch's entry. The trigger is not consulted on that call.
        """
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in self._keys if k in observation})
        if not (getattr(trainer, 'is_before_training', False) or self._trigger(trainer)):
            return None
        return {name: float(value) for name, value in self._summary.compute_mean().items()}

    def _serialize_summary(self, serializer: AbstractSerializer, label: str) -> None:
        """Save or load the trigger state and the running summary.

        ``label`` names the report in the warning for a snapshot without the summary.
        """
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        try:
            self._summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn(f'{label}: the running statistics are missing from the snapshot')
