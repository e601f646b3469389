"""The project's CPU threads: one pool of worker threads, and the thread counts of the
BLAS and OpenMP libraries NumPy and SciPy load (through threadpoolctl).

How many threads Chainer's CPU work uses (the blocks of a large matrix product, the
chunks of a fused optimizer update) is :func:`thread_count`: the CPUs this process may
run on (at most ``OMP_NUM_THREADS`` when that is set, as for the BLAS), or the
``CHAINER_CPU_THREADS`` environment variable when set (1: no worker threads). The
pool's threads block when idle (they never spin), are started on first use, and a
forked child starts its own.

Jobs are claimed from a shared list: the calling thread runs jobs too, and a thread that
gets less of the CPU simply takes fewer of them.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

#: the environment variable that sets :func:`thread_count`
ENV_THREADS = 'CHAINER_CPU_THREADS'

Job = Callable[[], object]


def cpu_count() -> int:
    """The number of CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def thread_count() -> int:
    """How many threads Chainer's CPU work may use (the caller's included): the value of
    ``CHAINER_CPU_THREADS`` when it is a positive integer, else :func:`cpu_count`, at
    most ``OMP_NUM_THREADS`` when that is a positive integer."""
    value = os.environ.get(ENV_THREADS, '').strip()
    if value.isdigit() and int(value) > 0:
        return int(value)
    n = cpu_count()
    omp = os.environ.get('OMP_NUM_THREADS', '').strip()
    if omp.isdigit() and int(omp) > 0:
        n = min(n, int(omp))
    return n


class _Batch:
    """The jobs of one :meth:`Pool.run`, claimed one by one by the threads running it."""

    def __init__(self, jobs: Sequence[Job]) -> None:
        self._jobs = iter(jobs)  # a list iterator: each next() is atomic under the GIL
        self._left = len(jobs)
        self._lock = threading.Lock()
        self._finished = threading.Event()
        self.error: BaseException | None = None

    def work(self) -> None:
        for job in self._jobs:
            try:
                job()
            except BaseException as e:  # re-raised by Pool.run, after the other jobs
                with self._lock:
                    if self.error is None:
                        self.error = e
            with self._lock:
                self._left -= 1
                if self._left == 0:
                    self._finished.set()


class Pool:
    """Worker threads that run the jobs of :meth:`run` with the calling thread.

    Args:
        workers: the number of worker threads (besides callers).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._tasks: queue.SimpleQueue[_Batch] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._serve, name=f'chainer-cpu-{i}',
                                          daemon=True) for i in range(workers)]
        for t in self._threads:
            t.start()

    def _serve(self) -> None:
        while True:
            self._tasks.get().work()

    def run(self, jobs: Sequence[Job], threads: int | None = None) -> None:
        """Run every job once, on the calling thread and up to ``threads - 1`` workers
        (default: all of them); return when all have finished.

        Raises:
            The first exception a job raised (the other jobs still run).
        """
        n = min(len(jobs), self.workers + 1 if threads is None else threads)
        if n <= 1:
            for job in jobs:
                job()
            return
        batch = _Batch(jobs)
        for _ in range(n - 1):
            self._tasks.put(batch)
        batch.work()
        batch._finished.wait()  # the caller ran out of jobs: wait for those still running
        if batch.error is not None:
            raise batch.error


_pool: Pool | None = None
_pool_lock = threading.Lock()


def pool() -> Pool:
    """The process's pool, with :func:`thread_count` - 1 workers (started on first use)."""
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = Pool(max(0, thread_count() - 1))
    return _pool


def _forget() -> None:
    # a forked child has none of its parent's threads: start afresh on first use
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, 'register_at_fork'):
    os.register_at_fork(after_in_child=_forget)


def blas_libraries() -> list[Any]:
    """threadpoolctl's controllers of the BLAS libraries loaded now (OpenBLAS, MKL, BLIS),
    each with ``num_threads`` and ``set_num_threads(n)``; empty without threadpoolctl's
    support for the platform."""
    from threadpoolctl import ThreadpoolController
    return [lib for lib in ThreadpoolController().lib_controllers if lib.user_api == 'blas']
