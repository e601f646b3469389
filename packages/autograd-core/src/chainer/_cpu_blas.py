"""CPU matrix products that leave no OpenBLAS thread spinning.

After each multithreaded call, the worker threads of NumPy's OpenBLAS busy-wait for
more work for about a tenth of a second. Whatever else the process runs on threads
in that time (the fused optimizer updates, for one) shares its cores with them and
gains nothing from its extra threads. Here the products of Chainer's hot paths run
with OpenBLAS held to one thread where that costs nothing: :func:`dot` runs a large
product as row or column blocks on the project's worker threads (``chainer._threads``),
which block when idle, and a small one on the calling thread; :class:`one_thread` does the same for
any other BLAS call (the matrix-vector row sums). OpenBLAS's thread count is
restored after each call, so the user's own NumPy code keeps its threads.

Each element of a product is still one dot product over the whole summed axis (the
blocks split the rows or the columns of the result), though OpenBLAS may round a
block's elements differently in the last bit than the whole product's.

The BLAS libraries (OpenBLAS, MKL or BLIS; NumPy's, and SciPy's if loaded) are found
and their thread counts set through threadpoolctl, on every platform it supports. This
applies when they run 2 threads (:data:`MAX_THREADS`; a 2-core machine such as a small
cloud VM). Elsewhere, and for a call made while another thread is inside one of these,
the calls are NumPy's plain ones.
"""

from __future__ import annotations

import os
import threading
import time

import numpy

from chainer import _gpu_blas, _threads
from chainer.backends import cuda

#: products with fewer multiply-adds run on one thread (they gain little from more)
ONE_THREAD_MACS = 1 << 21
#: products with at least this many multiply-adds run as blocks on several threads;
#: between the two, the BLAS's own threads run them (one thread would take about 1.6x
#: as long, and blocks that small cost more in thread hand-offs than they save)
SPLIT_MACS = 1 << 23
#: a block has at least this many rows or columns of the result
MIN_BLOCK_WIDTH = 32
#: how long OpenBLAS's workers may spin after a call of their own (their default
#: timeout is 2^28 processor cycles)
SPIN_SECONDS = 0.2
#: the most BLAS threads this blocking policy applies to: it was measured on 2 cores;
#: with more threads the BLAS partitions a product over its threads better than row or
#: column blocks do, and its own threads run it
MAX_THREADS = 2
#: OpenBLAS runs a product below this many multiply-adds on one thread anyway: callers
#: on a hot path may take ``a.dot(b)`` below it without calling :func:`dot`
SMALL_MACS = 1 << 18
#: likewise for a matrix-vector product of a matrix up to this many elements (callers
#: need no :class:`one_thread` below it)
SMALL_GEMV = 1 << 13
_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


class _Control:
    """The BLAS libraries found on first use in this process (through threadpoolctl),
    and whether the blocking policy applies (it does not when it finds none, or when
    they run one thread or more than :data:`MAX_THREADS`)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        try:
            self.libraries = _threads.blas_libraries()
        except Exception:  # threadpoolctl cannot inspect this platform: NumPy's plain calls
            self.libraries = []
        threads = max((lib.num_threads for lib in self.libraries), default=1)
        self.applies = 2 <= threads <= MAX_THREADS
        self.threaded_at = -1e9  # when the BLAS last ran a product on its own threads

    def hold(self) -> list[int]:
        """Hold every BLAS to one thread; returns their thread counts before."""
        counts = [lib.num_threads for lib in self.libraries]
        for lib in self.libraries:
            lib.set_num_threads(1)
        return counts

    def release(self, counts: list[int]) -> None:
        """Give each BLAS back the thread count :meth:`hold` returned."""
        for lib, count in zip(self.libraries, counts):
            lib.set_num_threads(count)


_control: _Control | None = None
_control_lock = threading.Lock()


def _get_control() -> _Control:
    global _control
    with _control_lock:
        if _control is None:
            _control = _Control()
        return _control


def _forget() -> None:
    # a forked child may have been forked while another thread held a lock: start afresh
    global _control, _control_lock
    _control = None
    _control_lock = threading.Lock()


if hasattr(os, 'register_at_fork'):
    os.register_at_fork(after_in_child=_forget)


def _blas_strided(x: numpy.ndarray) -> bool:
    # rows or columns contiguous: BLAS reads the matrix without a copy
    s0, s1 = x.strides
    item = x.itemsize
    return ((s1 == item and s0 >= item * x.shape[1])
            or (s0 == item and s1 >= item * x.shape[0]))


def dot(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """The matrix product ``a b``, as ``a.dot(b)`` computes it.

    How a float32/float64 NumPy product runs, by its number of multiply-adds (anything
    else, and everything where this module does not apply, is ``a.dot(b)``):

    - small (below :data:`ONE_THREAD_MACS`): here, OpenBLAS held to one thread;
    - mid-sized (below :data:`SPLIT_MACS`): on OpenBLAS's own threads, which then
      spin for a while;
    - large: as row or column blocks, here and on the helper threads, OpenBLAS held to
      one thread; but on OpenBLAS's own threads when the result is too narrow to cut
      (under ``2 * MIN_BLOCK_WIDTH`` rows and columns), when a matrix has no
      contiguous axis, and while OpenBLAS's workers may still be spinning from such a
      call (:data:`SPIN_SECONDS`), as blocks would share their cores with them.

    Args:
        a: matrix of shape ``(m, k)`` (NumPy, or CuPy: then one cuBLAS call through
            :func:`chainer._gpu_blas.dot`).
        b: matrix of shape ``(k, n)``, of the same kind.

    Returns:
        The product of shape ``(m, n)``: a C-contiguous array equal to ``a.dot(b)``
        up to the last bit of some elements.
    """
    if type(a) is cuda.ndarray:
        return _gpu_blas.dot(a, b)
    m, k = a.shape
    n = b.shape[1]
    macs = m * n * k
    if (macs < SMALL_MACS or type(a) is not numpy.ndarray
            or type(b) is not numpy.ndarray or a.dtype != b.dtype or a.dtype not in _DTYPES):
        return a.dot(b)
    control = _control if _control is not None else _get_control()
    if not control.applies:
        return a.dot(b)
    pool = _threads.pool()
    width = max(m, n)
    if macs >= ONE_THREAD_MACS and (
            macs < SPLIT_MACS or width < 2 * MIN_BLOCK_WIDTH
            or time.monotonic() - control.threaded_at < SPIN_SECONDS
            or not (_blas_strided(a) and _blas_strided(b))):
        # OpenBLAS's own threads: mid-sized, too narrow to cut, not BLAS-strided, or
        # while its workers may still spin
        control.threaded_at = time.monotonic()
        return a.dot(b)
    with one_thread() as counts:
        if counts is None or macs < ONE_THREAD_MACS:  # another thread holds it, or small
            return a.dot(b)
        blocks = min(max(counts), pool.workers + 1, width // MIN_BLOCK_WIDTH)
        if blocks < 2:  # the user lowered OpenBLAS's thread count to 1
            return a.dot(b)
        out = numpy.empty((m, n), a.dtype)
        cuts = [width * i // blocks for i in range(blocks + 1)]
        if m >= n:
            jobs = [_Product(a[s:e], b, out[s:e]) for s, e in zip(cuts, cuts[1:])]
        else:
            jobs = [_Product(a, b[:, s:e], out[:, s:e]) for s, e in zip(cuts, cuts[1:])]
        pool.run(jobs)
        return out


class _Product:
    """A job writing ``a @ b`` into ``out``."""

    __slots__ = ('a', 'b', 'out')

    def __init__(self, a: numpy.ndarray, b: numpy.ndarray, out: numpy.ndarray) -> None:
        self.a, self.b, self.out = a, b, out

    def __call__(self) -> None:
        numpy.matmul(self.a, self.b, out=self.out)


class one_thread:
    """Context manager: the BLAS calls inside run on the calling thread alone (every
    OpenBLAS held to one thread, given its count back on exit), so that no OpenBLAS
    worker spins afterwards. Does nothing where this module does not apply or while
    another thread is inside :func:`dot` or a ``one_thread`` block.

    ``with one_thread() as counts``: ``counts`` is the OpenBLAS thread counts held
    (a list of ints), or None when it does nothing."""

    __slots__ = ('_control', '_counts')

    def __enter__(self) -> list[int] | None:
        control = _control if _control is not None else _get_control()
        self._control = None
        if control.applies and control.lock.acquire(blocking=False):
            self._control = control
            self._counts = control.hold()
            return self._counts
        return None

    def __exit__(self, *exc: object) -> None:
        control = self._control
        if control is not None:
            self._control = None
            try:
                control.release(self._counts)
            finally:
                control.lock.release()
