"""Averaging a reported value over processes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend
from chainer.training import extension
from chainer.training import util as training_util

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer
    from chainer.training.util import TriggerSpec
    from chainermn.communicators.communicator_base import CommunicatorBase


def _mean(values: list[Any]) -> Any:
    return sum(values) / len(values)


class ObservationAggregator(extension.Extension):
    """Trainer extension that aggregates an observed value over the processes.

    Every iteration it collects ``trainer.observation[original_key]`` (an array,
    Variable or number); when ``comm_trigger`` fires, the mean of the values collected
    on each process is gathered on every process, aggregated (by default: their mean)
    and put into ``trainer.observation[aggregated_key]`` (a Variable when the observed
    values were Variables, else an array of their kind and dtype).

    Args:
        comm: a ChainerMN communicator.
        original_key: the observed key.
        aggregated_key: where the aggregate goes (default: ``original_key``).
        comm_trigger: when to communicate (default every iteration).
        aggregator: a function of the list of per-process means (default: the mean).
    """

    trigger = (1, 'iteration')
    priority = extension.PRIORITY_EDITOR

    def __init__(self, comm: CommunicatorBase, original_key: str,
                 aggregated_key: str | None = None, *,
                 comm_trigger: TriggerSpec = (1, 'iteration'),
                 aggregator: Callable[[list[Any]], Any] | None = None) -> None:
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None else aggregated_key
        self.comm_trigger = training_util.get_trigger(comm_trigger)
        self.aggregator = _mean if aggregator is None else aggregator
        self._values: list[Any] = []

    def __call__(self, trainer: Trainer) -> None:
        """Collect the observed value; aggregate when ``comm_trigger`` fires."""
        observation = trainer.observation
        if self.original_key in observation:
            self._values.append(observation[self.original_key])
        if not self.comm_trigger(trainer) or not self._values:
            return
        values, self._values = self._values, []
        sample = values[0]
        is_variable = isinstance(sample, chainer.Variable)
        arrays = [v.array if isinstance(v, chainer.Variable) else v for v in values]
        local = _mean([_to_host(a) for a in arrays])
        aggregated = self.aggregator(self.comm.mpi_comm.allgather(local))
        first = arrays[0]
        if hasattr(first, 'dtype'):
            xp = backend.get_array_module(first)
            aggregated = xp.asarray(numpy.asarray(aggregated, dtype=first.dtype))
        observation[self.aggregated_key] = (chainer.Variable(aggregated) if is_variable
                                            else aggregated)


def _to_host(a: Any) -> Any:
    if hasattr(a, 'get') and not isinstance(a, numpy.ndarray):
        return a.get()
    return a
