"""Iterator that reads examples in threads, one batch ahead."""

from __future__ import annotations

import concurrent.futures
from typing import TYPE_CHECKING, Any

from chainer.backends.numbers import to_int
from chainer.iterators import _statemachine as _sm
from chainer.iterators._prefetch import PrefetchIterator

if TYPE_CHECKING:
    from collections.abc import Callable

    from chainer.dataset.dataset_mixin import DatasetLike
    from chainer.types import NdArray


__all__ = ['MultithreadIterator']


class MultithreadIterator(PrefetchIterator):
    """Dataset iterator that reads examples in a pool of threads.

    It walks the dataset exactly as :class:`~chainer.iterators.SerialIterator` does
    (same options and snapshots) and reads the next batch while the current one is
    used. Threads help when reading an example waits on I/O or runs code that releases
    the GIL (image decoding, NumPy); for pure-Python transforms use
    :class:`~chainer.iterators.MultiprocessIterator`.

    Args:
        dataset: A dataset supporting ``len`` and indexing.
        batch_size: Number of examples per batch.
        repeat: Whether to loop over the dataset indefinitely.
        shuffle: Whether to visit the examples in a new random order every epoch;
            ``None`` means ``True`` unless ``order_sampler`` is given.
        n_threads: Number of threads reading examples.
        order_sampler: An order sampler (see :class:`~chainer.iterators.OrderSampler`).

    Raises:
        ValueError: for a non-positive ``batch_size`` or ``n_threads``, an empty
            dataset, or both ``shuffle`` and ``order_sampler`` given.
    """

    _name = 'MultithreadIterator'
    _worker_attributes = ('_executor', '_futures')

    def __init__(self, dataset: DatasetLike, batch_size: int, repeat: bool = True,
                 shuffle: bool | None = None, n_threads: int = 1,
                 order_sampler: Callable[[NdArray, int], NdArray] | None = None) -> None:
        n = to_int(n_threads)
        if n is None or n <= 0:
            raise ValueError(f'n_threads must be a positive int, got {n_threads!r}')
        self.n_threads = n
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._futures: dict[int, list[concurrent.futures.Future]] = {}
        self._setup(dataset, batch_size, repeat, shuffle, order_sampler, 1)

    def _start(self) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(
            self.n_threads, thread_name_prefix='MultithreadIterator')
        self._futures = {}

    def _submit(self, seq: int, indices: Any) -> None:
        executor = self._executor
        if executor is None:  # _start runs before the first batch is planned
            raise RuntimeError('MultithreadIterator: the worker threads are not running')
        chunk = max(1, -(-len(indices) // self.n_threads))
        self._futures[seq] = [
            executor.submit(_sm.fetch_examples, self.dataset, indices[i:i + chunk])
            for i in range(0, len(indices), chunk)]

    def _collect(self, seq: int) -> list[Any]:
        batch: list[Any] = []
        for future in self._futures.pop(seq):
            batch.extend(future.result())
        return batch

    def _cancel(self, seq: int) -> None:
        for future in self._futures.pop(seq, ()):
            future.cancel()

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        self._futures = {}  # (not None, as the base leaves the worker attributes)

    def _stop(self) -> None:
        executor, self._executor = self._executor, None
        self._futures = {}
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def reset(self) -> None:
        """Rewind to the beginning; also allowed after :meth:`finalize` (as in v7)."""
        self._finalized = False
        super().reset()
