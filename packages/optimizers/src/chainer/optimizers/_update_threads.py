"""Run the chunks of a fused optimizer update on the project's CPU worker threads.

An update is a list of independent jobs (a kernel over one cache-sized chunk of
a parameter, or over one pack of small parameters). NumPy's ufuncs release the
GIL, so the jobs run in parallel on the threads of autograd-core's one pool
(``chainer.internal.cpu_pool``), each claiming the next job until none is left: a
thread that gets less of the CPU simply takes fewer jobs.

The number of threads is ``chainer.internal.cpu_thread_count()``: the CPUs this process
may run on, or ``CHAINER_CPU_THREADS`` (1: no threads).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainer import internal

#: A job: called with the thread's temporary arrays, ``temps(dtypes)``.
Job = Callable[[Callable[[Sequence[Any]], list[Any]]], None]

_local = threading.local()


def thread_count() -> int:
    """How many threads an update uses."""
    return internal.cpu_thread_count()


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


class _WithTemps:
    """A job called with the temporaries of the thread that runs it."""

    __slots__ = ('job', 'chunk')

    def __init__(self, job: Job, chunk: int) -> None:
        self.job, self.chunk = job, chunk

    def __call__(self) -> None:
        self.job(_temps(self.chunk))


def run(jobs: list[Job], chunk: int) -> None:
    """Run every job once, on up to :func:`thread_count` threads; returns when all are done.

    Raises:
        The first exception a job raised (the other jobs still run).
    """
    n = min(thread_count(), len(jobs))
    if n <= 1:
        run_here(jobs, chunk)
        return
    internal.cpu_pool().run([_WithTemps(job, chunk) for job in jobs], threads=n)
