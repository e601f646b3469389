"""Early stopping on a value averaged over all processes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.training.triggers import EarlyStoppingTrigger

if TYPE_CHECKING:
    from chainer.training.util import TriggerSpec
    from chainermn.communicators.communicator_base import CommunicatorBase



class MultiNodeEarlyStoppingTrigger(EarlyStoppingTrigger):
    """Stop trigger that ends training when the mean of ``monitor`` over all processes
    has not improved for ``patience`` checks; every process stops at the same time.

    An :class:`~chainer.training.triggers.EarlyStoppingTrigger` whose checked value is
    agreed by all processes: every call accumulates ``trainer.observation[monitor]``;
    at each ``check_trigger`` each process's mean is averaged over the processes that
    reported it (an allreduce: every process calls the trigger together) and compared
    with the best so far, so that all of them stop at the same iteration.

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

    def __init__(self, comm: CommunicatorBase, check_trigger: TriggerSpec = (1, 'epoch'),
                 monitor: str = 'main/loss', patience: int = 3, mode: str = 'auto',
                 verbose: bool = False, max_trigger: TriggerSpec = (100, 'epoch')) -> None:
        super().__init__(check_trigger=check_trigger, monitor=monitor, patience=patience,
                         mode=mode, verbose=verbose, max_trigger=max_trigger)
        self.comm = comm

    def _checked_value(self, stats: dict[str, Any]) -> float | None:
        """The mean over the processes of each one's mean; ``None`` when none reported."""
        local = numpy.zeros(2)
        if self.monitor in stats:
            local[:] = float(stats[self.monitor]), 1.0
        total = self.comm.allreduce(local)
        if total[1] == 0:
            return None
        return float(total[0] / total[1])

    def _reports(self) -> bool:
        """Only rank 0 prints the ``verbose`` line."""
        return self.comm.rank == 0
