"""Iterator that reads examples in worker processes, batches ahead of time."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from chainer.backends.numbers import to_int
from chainer.iterators._prefetch import PrefetchIterator
from chainer.iterators._worker_pool import (
    WorkerPool,
    WorkerProcessError,
    default_process_count,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from chainer.dataset.dataset_mixin import DatasetLike
    from chainer.types import NdArray


__all__ = ['MultiprocessIterator', 'TimeoutWarning', 'WorkerProcessError']


class TimeoutWarning(RuntimeWarning):
    """Reading a batch took longer than ``dataset_timeout`` seconds."""


def _positive_or_none(name: str, value: Any) -> int | None:
    if value is None:
        return None
    n = to_int(value)
    if n is None or n <= 0:
        raise ValueError(f'{name} must be a positive int or None, got {value!r}')
    return n


class MultiprocessIterator(PrefetchIterator):
    """Dataset iterator that reads examples in worker processes.

    It walks the dataset exactly as :class:`~chainer.iterators.SerialIterator` does
    (same options, same ``epoch_detail``, interchangeable snapshots), but the examples
    (``dataset[i]``, with any transform the dataset applies) are read by
    ``n_processes`` worker processes, ``n_prefetch`` batches ahead of the batch being
    used. Use it when reading or augmenting examples costs more than a few
    milliseconds.

    On Linux the workers are forked, so any dataset works; on other systems they are
    spawned and the dataset must be picklable. Workers start at the first ``next`` and
    stop at :meth:`finalize` (also called when the iterator is garbage collected, and by
    ``with`` blocks and the trainer). An exception raised by the dataset in a worker is
    raised by ``next`` (with the worker's traceback as its cause), and a worker that dies
    (killed, out of memory, crashed) raises :class:`WorkerProcessError`; the iterator
    never waits forever for a dead worker.

    Args:
        dataset: A dataset supporting ``len`` and indexing.
        batch_size: Number of examples per batch.
        repeat: Whether to loop over the dataset indefinitely.
        shuffle: Whether to visit the examples in a new random order every epoch;
            ``None`` means ``True`` unless ``order_sampler`` is given.
        n_processes: Number of worker processes; ``None`` means the number of CPU
            cores this process may use.
        n_prefetch: Number of batches read ahead.
        shared_mem: Bytes of shared memory per example. Arrays of an example (also
            inside tuples, lists and dicts) are passed through it instead of being
            pickled; what does not fit is pickled (with a warning once). ``None``
            pickles every example (Chainer v7 sized the buffer automatically instead).
        order_sampler: An order sampler (see :class:`~chainer.iterators.OrderSampler`);
            it runs in the main process, so it may be any callable.
        dataset_timeout: Seconds after which a batch still being read issues a
            :class:`TimeoutWarning` (it keeps waiting); ``None`` disables it.
        maxtasksperchild: Examples a worker reads before it is replaced by a fresh
            one (to bound leaks in dataset code); ``None`` keeps workers.

    Raises:
        ValueError: for a non-positive ``batch_size``, ``n_processes``,
            ``n_prefetch``, ``shared_mem`` or ``maxtasksperchild``, an empty dataset,
            or both ``shuffle`` and ``order_sampler`` given.
    """

    TimeoutWarning = TimeoutWarning
    WorkerProcessError = WorkerProcessError
    _name = 'MultiprocessIterator'
    _worker_attributes = ('_pool',)
    _interruption_testing = False

    def __init__(self, dataset: DatasetLike, batch_size: int, repeat: bool = True,
                 shuffle: bool | None = None, n_processes: int | None = None,
                 n_prefetch: int = 1, shared_mem: int | None = None,
                 order_sampler: Callable[[NdArray, int], NdArray] | None = None,
                 dataset_timeout: float | None = 30.0,
                 maxtasksperchild: int | None = None) -> None:
        prefetch = _positive_or_none('n_prefetch', n_prefetch)
        if prefetch is None:
            raise ValueError('n_prefetch must be a positive int, got None')
        self.n_processes = (_positive_or_none('n_processes', n_processes)
                            or default_process_count())
        self.shared_mem = _positive_or_none('shared_mem', shared_mem)
        self.maxtasksperchild = _positive_or_none('maxtasksperchild', maxtasksperchild)
        if dataset_timeout is not None and dataset_timeout <= 0:
            raise ValueError(f'dataset_timeout must be positive or None, got {dataset_timeout}')
        self.dataset_timeout = dataset_timeout
        self._pool: WorkerPool | None = None
        self._setup(dataset, batch_size, repeat, shuffle, order_sampler, prefetch)

    def _start(self) -> None:
        self._pool = WorkerPool(self.dataset, self.n_processes, self.batch_size,
                                self._n_prefetch, self.shared_mem, self.maxtasksperchild)

    def _live_pool(self) -> WorkerPool:
        pool = self._pool
        if pool is None:  # _start runs before the first batch is planned
            raise RuntimeError('MultiprocessIterator: the worker pool is not running')
        return pool

    def _submit(self, seq: int, indices: Any) -> None:
        try:
            self._live_pool().submit(seq, indices)
        except WorkerProcessError:
            self._forget_pool()
            raise

    def _collect(self, seq: int) -> list[Any]:
        try:
            return self._live_pool().collect(seq, self.dataset_timeout, self._warn_timeout)
        except WorkerProcessError:
            self._forget_pool()
            raise

    def _forget_pool(self) -> None:
        """After a worker died (the pool closed itself): the next call starts anew."""
        self._pool = None
        self._started = False
        self._inflight.clear()
        self._planned = self._state

    def _warn_timeout(self) -> None:
        warnings.warn(
            f'MultiprocessIterator: reading a batch has taken more than '
            f'{self.dataset_timeout} seconds (dataset_timeout). The dataset may be slow '
            f'or stalled (a lock held at fork time, a hung network read, ...); the '
            f'iterator keeps waiting.', TimeoutWarning, stacklevel=4)

    def _cancel(self, seq: int) -> None:
        if self._pool is not None:
            self._pool.cancel(seq)

    def _stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def worker_pids(self) -> list[int]:
        """Process ids of the running workers (empty before the first batch)."""
        return [] if self._pool is None else self._pool.pids()

    def reset(self) -> None:
        """Rewind to the beginning: epoch 0, position 0, a fresh order.

        Raises:
            NotImplementedError: after :meth:`finalize` (as in Chainer v7).
        """
        if self._finalized:
            raise NotImplementedError(
                'MultiprocessIterator does not support reset() after finalize()')
        super().reset()
