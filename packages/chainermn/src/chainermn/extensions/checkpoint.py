"""Generational checkpoints of a multi-node job (deprecated in v7 for multi_node_snapshot)."""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from chainer.training import extension

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer
    from chainermn.communicators.communicator_base import CommunicatorBase


class _CheckpointStats:
    """Counts and times the saves or loads of a checkpointer."""

    def __init__(self) -> None:
        self.timings: list[float] = []
        self._started: float | None = None

    def start(self) -> None:
        """Start timing one operation."""
        self._started = time.perf_counter()

    def end(self) -> None:
        """End timing the operation started last."""
        if self._started is not None:
            self.timings.append(time.perf_counter() - self._started)
            self._started = None

    def report(self) -> str:
        """A one-line summary: count, total, mean, min and max time."""
        if not self.timings:
            return 'no checkpoint operations'
        total = sum(self.timings)
        return (f'{len(self.timings)} checkpoint operations in {total:.3f}s: mean '
                f'{total / len(self.timings):.3f}s, min {min(self.timings):.3f}s, max '
                f'{max(self.timings):.3f}s')


class _MultiNodeCheckpointer(extension.Extension):
    """Saves ``<name>.<rank>.<iteration>`` checkpoints and finds, at restart, the newest
    iteration every process has a checkpoint of. See
    :func:`create_multi_node_checkpointer`."""

    trigger = (1, 'epoch')
    priority = -100  # after the other extensions of the iteration, as snapshots

    def __init__(self, name: str, comm: CommunicatorBase, cp_interval: int = 5,
                 gc_interval: int = 5,
                 path: str | None = None) -> None:
        if cp_interval < 1 or gc_interval < 1:
            raise ValueError(f'cp_interval and gc_interval must be at least 1, got '
                             f'{cp_interval} and {gc_interval}')
        self.name = name
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = path
        self.stats = _CheckpointStats()
        self._saves = 0
        self._failed = False

    # -- file names ----------------------------------------------------------------------
    def _filenames(self, nums: Any) -> list[str]:
        return [f'{self.name}.{self.comm.rank}.{int(n)}' for n in nums]

    def _parse_filenames(self, filenames: Any) -> Iterator[tuple[str, int, int]]:
        """``(name, rank, iteration)`` of the file names of this checkpointer's process."""
        for filename in filenames:
            parts = filename.rsplit('.', 2)
            if len(parts) != 3 or parts[0] != self.name:
                continue
            try:
                rank, iteration = int(parts[1]), int(parts[2])
            except ValueError:
                continue
            if rank == self.comm.rank:
                yield parts[0], rank, iteration

    def _directory(self, trainer: Trainer | None = None) -> str:
        if self.path is None:
            self.path = getattr(trainer, 'out', None) or os.getcwd()
        return self.path

    def _iterations(self) -> list[int]:
        directory = self._directory()
        if not os.path.isdir(directory):
            return []
        return sorted(i for _, _, i in self._parse_filenames(os.listdir(directory)))

    # -- saving and loading --------------------------------------------------------------
    def __call__(self, trainer: Trainer) -> None:
        """Save a checkpoint of ``trainer`` at its current iteration."""
        self._directory(trainer)
        self.save(trainer, trainer.updater.iteration)

    def save(self, target: Any, iteration: int) -> None:
        """Save ``target`` (anything serializable) as the checkpoint of ``iteration``;
        every ``gc_interval`` saves, delete all but the newest ``cp_interval``."""
        from chainer import serializers

        directory = self._directory()
        os.makedirs(directory, exist_ok=True)
        self.stats.start()
        final = os.path.join(directory, self._filenames([iteration])[0])
        serializers.save_npz(final, target)  # atomic: chainer.backends.files (fsync-ed)
        self.stats.end()
        self._saves += 1
        if self._saves % self.gc_interval == 0:
            for old in self._iterations()[:-self.cp_interval]:
                os.remove(os.path.join(directory, self._filenames([old])[0]))

    def maybe_load(self, trainer: Trainer, optimizer: Any = None, path: str | None = None) -> None:
        """Load the newest checkpoint that every process has (collective).

        Args:
            trainer: the object to load into (a trainer, an updater, ...).
            optimizer: the multi-node optimizer; after a load it skips its initial
                broadcast, as every process loaded the same state.
            path: the directory (default: the checkpointer's).
        """
        from chainer import serializers

        if path is not None:
            self.path = path
        self._directory(trainer)
        mine = set(self._iterations())
        common = set.intersection(*self.comm.mpi_comm.allgather(mine))
        if not common:
            return
        iteration = max(common)
        self.stats.start()
        serializers.load_npz(
            os.path.join(self._directory(), self._filenames([iteration])[0]), trainer)
        self.stats.end()
        if optimizer is not None and hasattr(optimizer, '_skip_broadcast'):
            optimizer._skip_broadcast()

    def on_error(self, trainer: Trainer, exc: BaseException, tb: Any) -> None:
        """Keep the checkpoints: training failed, it may be resumed from them."""
        self._failed = True

    def finalize(self) -> None:
        """Delete this process's checkpoints, unless training failed."""
        if self.path is None or self._failed:
            return
        for iteration in self._iterations():
            os.remove(os.path.join(self.path, self._filenames([iteration])[0]))

    def get_stats(self) -> str:
        """A summary of the saves and loads."""
        return self.stats.report()


def create_multi_node_checkpointer(name: str, comm: CommunicatorBase, cp_interval: int = 5,
                                   gc_interval: int = 5,
                                   path: str | None = None) -> _MultiNodeCheckpointer:
    """A trainer extension that saves checkpoints of each process, for fault tolerance.

    Each process saves ``<name>.<rank>.<iteration>`` (NPZ) in ``path`` (default: the
    trainer's ``out``). Every ``gc_interval`` saves, all but the newest ``cp_interval``
    are deleted; when training ends without error, all are. To resume, call
    ``checkpointer.maybe_load(trainer, optimizer)`` before ``trainer.run()`` (after the
    extensions with state are added): it loads the newest iteration all processes have.

    Deprecated in v7: use :func:`chainermn.extensions.multi_node_snapshot`.

    Args:
        name: identifies the run.
        comm: a ChainerMN communicator.
        cp_interval: how many checkpoints to keep.
        gc_interval: how many saves between deletions.
        path: the directory of the checkpoints.

    Raises:
        ValueError: when ``cp_interval`` or ``gc_interval`` is below 1.
    """
    warnings.warn('create_multi_node_checkpointer is deprecated: use '
                  'chainermn.extensions.multi_node_snapshot', DeprecationWarning, stacklevel=2)
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
