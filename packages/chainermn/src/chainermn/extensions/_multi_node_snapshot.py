"""Snapshots of a multi-node job: one per set of processes with the same state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.training import extension
from chainermn.extensions._state_sync import bcast_state

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer
    from chainermn.communicators.communicator_base import CommunicatorBase


def _parse_replica_sets(replica_sets: Any, size: int) -> list[set[int]]:
    """The replica sets as sets of ranks; the ranks not listed form one more set.

    Raises:
        ValueError: for a rank out of range or in two sets.
    """
    sets: list[set[int]] = []
    seen: set[int] = set()
    for entry in replica_sets:
        ranks = {entry} if isinstance(entry, int) else set(entry)
        bad = [r for r in ranks if not isinstance(r, int) or not 0 <= r < size]
        if bad or ranks & seen:
            raise ValueError(f'replica sets must hold distinct ranks in [0, {size}): '
                             f'{replica_sets!r}')
        seen |= ranks
        sets.append(ranks)
    rest = set(range(size)) - seen
    if rest:
        sets.append(rest)
    return sets


class _MultiNodeSnapshot(extension.Extension):
    """Runs a snapshot extension on the first process of each replica set.

    Attributes:
        snapshot: the wrapped snapshot; on a master process its file name ends with
            ``.<rank>``.
        is_master: whether this process writes the snapshots of its replica set.
    """

    def __init__(self, comm: CommunicatorBase, snapshot: Any, replica_sets: Any) -> None:
        sets = _parse_replica_sets(replica_sets, comm.size)
        index = next(i for i, s in enumerate(sets) if comm.rank in s)
        self.comm = comm
        self.snapshot = snapshot
        self.master = min(sets[index])
        self.is_master = comm.rank == self.master
        self._set_comm = comm.mpi_comm.Split(index, comm.rank)
        self.trigger = getattr(snapshot, 'trigger', (1, 'epoch'))
        self.priority = getattr(snapshot, 'priority', extension.PRIORITY_READER)
        if self.is_master:
            snapshot.filename = _with_rank(snapshot.filename, comm.rank)

    def initialize(self, trainer: Trainer) -> None:
        """Let the masters initialize (and autoload) the snapshot; with ``autoload``, the
        other processes of each set then take their master's state."""
        if self.is_master:
            self.snapshot.initialize(trainer)
        if getattr(self.snapshot, 'autoload', False):
            target = getattr(self.snapshot, '_target', None)
            bcast_state(trainer if target is None else target, self._set_comm, root=0)

    def __call__(self, trainer: Trainer) -> None:
        """Save the snapshot (masters only)."""
        if self.is_master:
            self.snapshot(trainer)

    def on_error(self, trainer: Trainer, exc: BaseException, tb: Any) -> None:
        """Forward the error to the snapshot (masters only)."""
        if self.is_master:
            self.snapshot.on_error(trainer, exc, tb)

    def finalize(self) -> None:
        """Finalize the snapshot (masters only)."""
        if self.is_master:
            self.snapshot.finalize()


def _with_rank(filename: Any, rank: int) -> Any:
    if callable(filename):
        return lambda trainer: f'{filename(trainer)}.{rank}'
    return f'{filename}.{rank}'


def multi_node_snapshot(comm: CommunicatorBase, snapshot: Any,
                        replica_sets: Any) -> _MultiNodeSnapshot:
    """Wrap a snapshot extension for a multi-node job.

    The processes are grouped into replica sets, whose members hold the same state
    (e.g. ``[0]``: rank 0, which alone has the reporting extensions, and all the others).
    The first process of each set saves snapshots named ``<filename>.<rank>``; with
    ``autoload``, it loads the newest one at start and the other members of its set
    receive that state, so a job may restart with another number of processes.

    Args:
        comm: a ChainerMN communicator.
        snapshot: a snapshot extension (``chainer.training.extensions.snapshot()``).
        replica_sets: a list of replica sets, each a rank or an iterable of ranks; the
            ranks not listed form one more set.

    Returns:
        The extension to give to ``trainer.extend``.

    Raises:
        ValueError: for a rank out of range or listed twice.
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
