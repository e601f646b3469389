"""Run the chunks of a fused optimizer update on a few threads.

An update is a list of independent jobs (a kernel over one cache-sized chunk of
a parameter, or over one pack of small parameters). NumPy's ufuncs release the
GIL, so the jobs run in parallel on threads that each claim the next job from
a shared list until none is left: a thread that gets less of the CPU (BLAS's
worker threads may still spin for a while after the backward's products)
simply takes fewer jobs, and no job waits for a slow thread.

The number of threads is that of the CPUs this process may run on, at most 4;
``OMP_NUM_THREADS`` lowers it as it does BLAS's (1: no threads).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy

#: A job: called with the thread's temporary arrays, ``temps(dtypes)``.
Job = Callable[[Callable[[Sequence[Any]], list[Any]]], None]

_MAX_THREADS = 4

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_pid = -1
_local = threading.local()


def thread_count() -> int:
    """How many threads an update uses (1 to 4)."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    omp = os.environ.get('OMP_NUM_THREADS', '')
    if omp.isdigit() and int(omp) > 0:
        n = min(n, int(omp))
    return max(1, min(n, _MAX_THREADS))


def _executor(helpers: int) -> ThreadPoolExecutor:
    global _pool, _pool_pid
    with _lock:
        if _pool is None or _pool_pid != os.getpid():  # a forked child needs its own
            _pool = ThreadPoolExecutor(helpers, thread_name_prefix='chainer-update')
            _pool_pid = os.getpid()
        return _pool


def _temps(chunk: int) -> Callable[[Sequence[Any]], list[Any]]:
    """This thread's temporary arrays of ``chunk`` elements, one per dtype asked for."""
    cache = getattr(_local, 'temps', None)
    if cache is None or _local.chunk != chunk:
        cache = _local.temps = {}
        _local.chunk = chunk

    def get(dtypes: Sequence[Any]) -> list[Any]:
        out = []
        for i, dt in enumerate(dtypes):
            key = (i, numpy.dtype(dt))
            buf = cache.get(key)
            if buf is None:
                buf = cache[key] = numpy.empty(chunk, dt)
            out.append(buf)
        return out

    return get


def run_here(jobs: list[Job], chunk: int) -> None:
    """Run every job in this thread, in order, with this thread's temporary arrays."""
    temps = _temps(chunk)
    for job in jobs:
        job(temps)


class _Batch:
    """The jobs of one update, shared by the threads that run them."""

    def __init__(self, jobs: list[Job]) -> None:
        self._jobs = iter(jobs)  # a list iterator: each next() is atomic under the GIL
        self._left = len(jobs)
        self._lock = threading.Lock()
        self._finished = threading.Event()
        self.error: BaseException | None = None

    def work(self, chunk: int) -> None:
        """Run jobs until none is left to claim (a thread that starts late finds none)."""
        temps = _temps(chunk)
        for job in self._jobs:
            try:
                job(temps)
            except BaseException as e:  # re-raised by run(), after the other jobs
                with self._lock:
                    if self.error is None:
                        self.error = e
            with self._lock:
                self._left -= 1
                if self._left == 0:
                    self._finished.set()

    def wait(self) -> None:
        """Wait until every job has run (not for threads that claimed none)."""
        self._finished.wait()


def run(jobs: list[Job], chunk: int) -> None:
    """Run every job once, on up to :func:`thread_count` threads; returns when all are done.

    Raises:
        The first exception a job raised (the other jobs still run).
    """
    n = min(thread_count(), len(jobs))
    if n <= 1:
        run_here(jobs, chunk)
        return
    batch = _Batch(jobs)
    pool = _executor(_MAX_THREADS - 1)
    for _ in range(n - 1):
        pool.submit(batch.work, chunk)
    batch.work(chunk)
    # the main thread ran out of jobs to claim: wait only for the ones still running
    batch.wait()
    if batch.error is not None:
        raise batch.error
