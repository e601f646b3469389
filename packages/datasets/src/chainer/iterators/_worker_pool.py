"""Worker processes that read examples of a dataset for :class:`MultiprocessIterator`.

Design (why not :class:`multiprocessing.Pool`): a pool loses the task of a worker that
dies and waits for it forever. Here every worker has its own task pipe and result pipe,
so the main process knows which examples each worker holds, watches the workers'
sentinels while it waits, and turns a death into an error naming the worker and its exit
status. Nothing is shared between workers (no shared lock a dying worker could hold).

- Tasks are chunks of a batch: ``(seq, slot, positions, indices)``; a worker reads
  ``dataset[i]`` for each index and answers ``('ok', seq, positions, examples)`` or
  ``('error', seq, positions, (exception, traceback text))``. A worker hands its
  answers to a sender thread, so it goes on reading examples while the main process is
  busy elsewhere (prefetching).
- With ``shared_mem``, arrays of an example are written into a shared buffer (one region
  of ``shared_mem`` bytes per example of the batch slot) instead of being pickled; what
  does not fit is pickled.
- With ``maxtasksperchild``, a worker is sent a stop message after that many examples
  and a replacement is started.
- On Linux workers are forked (any dataset works, nothing is pickled); elsewhere they are
  spawned and the dataset must be picklable.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable
from typing import Any

import numpy

from chainer.iterators._statemachine import fetch_examples

_POLL_SECONDS = 1.0  # how often an idle worker checks that its parent is alive
_WAIT_SECONDS = 0.5  # how often the main process re-checks while waiting
_STOP_GRACE_SECONDS = 1.0  # how long close() lets workers exit before terminating them


class WorkerProcessError(RuntimeError):
    """A worker process of :class:`~chainer.iterators.MultiprocessIterator` died."""


class _RemoteTraceback(Exception):
    """Carries the traceback text of an exception raised in a worker process."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def _context() -> Any:
    if sys.platform.startswith('linux'):
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


def default_process_count() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# ---------------------------------------------------------------- shared memory transfer

class _SharedArray:
    """Placeholder of an array written into the shared buffer."""

    __slots__ = ('dtype', 'offset', 'shape')

    def __init__(self, offset: int, dtype: str, shape: tuple[int, ...]) -> None:
        self.offset = offset
        self.dtype = dtype
        self.shape = shape

    def __reduce__(self) -> Any:
        return _SharedArray, (self.offset, self.dtype, self.shape)


def _pack(value: Any, buffer: memoryview, cursor: list[int], end: int) -> Any:
    """Move the arrays of ``value`` into ``buffer[cursor[0]:end]`` where they fit."""
    if type(value) is numpy.ndarray and not value.dtype.hasobject:
        size = value.nbytes
        start = cursor[0]
        if start + size > end:
            return value
        numpy.frombuffer(buffer, numpy.uint8, size, start)[...] = \
            numpy.ascontiguousarray(value).reshape(-1).view(numpy.uint8)
        cursor[0] = start + size + (-size % 16)  # keep the next array aligned
        return _SharedArray(start, value.dtype.str, value.shape)
    if type(value) is tuple:
        return tuple(_pack(v, buffer, cursor, end) for v in value)
    if type(value) is list:
        return [_pack(v, buffer, cursor, end) for v in value]
    if type(value) is dict:
        return {k: _pack(v, buffer, cursor, end) for k, v in value.items()}
    return value


def _unpack(value: Any, buffer: memoryview) -> Any:
    if type(value) is _SharedArray:
        dtype = numpy.dtype(value.dtype)
        count = int(numpy.prod(value.shape, dtype=numpy.int64))
        return numpy.frombuffer(buffer, dtype, count, value.offset).reshape(value.shape).copy()
    if type(value) is tuple:
        return tuple(_unpack(v, buffer) for v in value)
    if type(value) is list:
        return [_unpack(v, buffer) for v in value]
    if type(value) is dict:
        return {k: _unpack(v, buffer) for k, v in value.items()}
    return value


def _contains_array(value: Any) -> bool:
    if type(value) is numpy.ndarray:
        return not value.dtype.hasobject
    if type(value) in (tuple, list):
        return any(_contains_array(v) for v in value)
    if type(value) is dict:
        return any(_contains_array(v) for v in value.values())
    return False


# ---------------------------------------------------------------------------- the worker

def _exception_payload(exc: BaseException) -> tuple[BaseException, str]:
    text = ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # an exception that does not survive pickling
        exc = RuntimeError(f'{type(exc).__name__}: {exc}')
    return exc, text


def _sender(conn: Any, outbox: queue.SimpleQueue) -> None:
    while True:
        message = outbox.get()
        if message is None:
            return
        try:
            conn.send(message)
        except (OSError, ValueError):  # the main process is gone or closed the pipe
            return
        except Exception as exc:  # the examples cannot be pickled
            _, seq, positions, _ = message
            try:
                conn.send(('error', seq, positions, _exception_payload(exc)))
            except Exception:
                return


def _worker_main(dataset: Any, tasks: Any, results: Any, shared: Any, region: int,
                 batch_size: int, inherited: list[Any], parent: int) -> None:
    """Body of a worker process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is handled by the main process
    for conn in inherited:  # pipe ends of other workers, copied by fork
        with contextlib.suppress(OSError):
            conn.close()
    buffer = memoryview(shared).cast('B') if shared is not None else None
    outbox: queue.SimpleQueue = queue.SimpleQueue()
    sender = threading.Thread(target=_sender, args=(results, outbox), daemon=True)
    sender.start()
    while True:
        if not tasks.poll(_POLL_SECONDS):
            if os.getppid() != parent:  # orphaned: the main process died
                return
            continue
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            break
        if task is None:
            break
        seq, slot, positions, indices = task
        try:
            examples = fetch_examples(dataset, indices)
            if buffer is not None:
                examples = [
                    _pack(example, buffer, [(slot * batch_size + p) * region],
                          (slot * batch_size + p + 1) * region)
                    for example, p in zip(examples, positions, strict=True)]
            outbox.put(('ok', seq, positions, examples))
        except Exception as exc:
            outbox.put(('error', seq, positions, _exception_payload(exc)))
    outbox.put(None)
    sender.join()


# ----------------------------------------------------------------------- the main side

class _Worker:
    __slots__ = ('dispatched', 'outstanding', 'process', 'results', 'retiring', 'tasks')

    def __init__(self, process: Any, tasks: Any, results: Any) -> None:
        self.process = process
        self.tasks = tasks  # main's end of the task pipe
        self.results = results  # main's end of the result pipe
        self.outstanding: collections.deque[tuple[int, int]] = collections.deque()
        self.dispatched = 0
        self.retiring = False

    def load(self) -> int:
        return sum(n for _, n in self.outstanding)


class _Batch:
    __slots__ = ('cancelled', 'error', 'examples', 'pending', 'slot')

    def __init__(self, size: int, slot: int) -> None:
        self.examples: list[Any] = [None] * size
        self.pending = 0  # chunks not answered yet
        self.error: tuple[BaseException, str] | None = None
        self.cancelled = False
        self.slot = slot


class WorkerPool:
    """Worker processes reading batches of a dataset.

    Args:
        dataset: the dataset (inherited by forked workers, pickled for spawned ones).
        n_processes: number of workers.
        batch_size: the largest batch submitted.
        n_slots: the most batches in flight at once.
        shared_mem: bytes of shared memory per example, or ``None`` to pickle examples.
        maxtasksperchild: examples a worker reads before it is replaced, or ``None``.
    """

    def __init__(self, dataset: Any, n_processes: int, batch_size: int, n_slots: int,
                 shared_mem: int | None, maxtasksperchild: int | None) -> None:
        self._ctx = _context()
        self._dataset = dataset
        self._batch_size = batch_size
        self._region = shared_mem or 0
        self._maxtasks = maxtasksperchild
        self._shared = None
        self._view: memoryview | None = None
        if shared_mem:
            self._shared = self._ctx.RawArray('b', n_slots * batch_size * shared_mem)
            self._view = memoryview(self._shared).cast('B')
        self._free_slots = list(range(n_slots))
        self._batches: dict[int, _Batch] = {}
        self._workers: list[_Worker] = []
        self._retired: list[_Worker] = []
        self._size_warned = False
        self._closed = False
        for _ in range(n_processes):
            self._start_worker()

    # -- workers

    def _start_worker(self) -> None:
        task_reader, task_writer = self._ctx.Pipe(duplex=False)
        result_reader, result_writer = self._ctx.Pipe(duplex=False)
        forked = self._ctx.get_start_method() == 'fork'
        # A forked child holds copies of every pipe end of the main process; it closes
        # those it does not use, so that a pipe reports EOF when its real owner is gone.
        inherited = [c for w in self._workers + self._retired for c in (w.tasks, w.results)]
        inherited += [task_writer, result_reader]
        process = self._ctx.Process(
            target=_worker_main, daemon=True, name='MultiprocessIterator-worker',
            args=(self._dataset, task_reader, result_writer, self._shared, self._region,
                  self._batch_size, inherited if forked else [], os.getpid()))
        process.start()
        task_reader.close()
        result_writer.close()
        self._workers.append(_Worker(process, task_writer, result_reader))

    def pids(self) -> list[int]:
        """Process ids of the running workers."""
        return [w.process.pid for w in self._workers + self._retired]

    # -- submitting

    def submit(self, seq: int, indices: numpy.ndarray) -> None:
        """Start reading the examples ``indices`` as batch ``seq``."""
        while not self._free_slots:
            self._pump(_WAIT_SECONDS)  # cancelled batches still hold every slot
        slot = self._free_slots.pop()
        batch = _Batch(len(indices), slot)
        self._batches[seq] = batch
        size = len(indices)
        active = len(self._workers)
        chunk = max(1, -(-size // active))
        start = 0
        while start < size:
            worker = min(self._workers, key=_Worker.load)
            stop = min(start + chunk, size)
            if self._maxtasks is not None:
                stop = min(stop, start + self._maxtasks - worker.dispatched)
            positions = list(range(start, stop))
            try:
                worker.tasks.send((seq, slot, positions, indices[start:stop]))
            except OSError:  # the worker is gone: its pipe is broken
                self._reap(worker)
            worker.outstanding.append((seq, stop - start))
            worker.dispatched += stop - start
            batch.pending += 1
            if self._maxtasks is not None and worker.dispatched >= self._maxtasks:
                self._retire(worker)
            start = stop

    def _retire(self, worker: _Worker) -> None:
        with contextlib.suppress(OSError):
            worker.tasks.send(None)
        worker.retiring = True
        self._workers.remove(worker)
        self._retired.append(worker)
        self._start_worker()

    def cancel(self, seq: int) -> None:
        """Forget batch ``seq``: its examples are dropped when they arrive."""
        batch = self._batches.get(seq)
        if batch is None:
            return
        batch.cancelled = True
        self._release_if_done(seq, batch)

    def _release_if_done(self, seq: int, batch: _Batch) -> None:
        if batch.cancelled and batch.pending == 0:
            del self._batches[seq]
            self._free_slots.append(batch.slot)

    # -- collecting

    def collect(self, seq: int, timeout: float | None,
                on_timeout: Callable[[], None]) -> list[Any]:
        """Wait for batch ``seq`` and return its examples.

        Args:
            seq: the batch.
            timeout: seconds after which ``on_timeout`` is called once (``None``: never).
            on_timeout: called when the batch takes longer than ``timeout``.

        Raises:
            WorkerProcessError: a worker died.
            Exception: what the dataset raised in a worker (with the worker's
                traceback as its cause).
        """
        batch = self._batches[seq]
        # None once warned (or with no timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while batch.pending and batch.error is None:
            wait = _WAIT_SECONDS
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    on_timeout()
                    deadline = None
                else:
                    wait = min(wait, left)
            self._pump(wait)
        if batch.error is not None:
            batch.cancelled = True
            self._release_if_done(seq, batch)
            exc, text = batch.error
            raise exc from _RemoteTraceback(text)
        del self._batches[seq]
        self._free_slots.append(batch.slot)
        return batch.examples

    def _pump(self, timeout: float) -> None:
        """Receive what is ready (waiting up to ``timeout``); check dead workers."""
        everyone = self._workers + self._retired
        readers = {w.results: w for w in everyone}
        sentinels = {w.process.sentinel: w for w in everyone}
        ready = multiprocessing.connection.wait(list(readers) + list(sentinels), timeout)
        dead: dict[int, _Worker] = {}
        for item in ready:
            worker = readers.get(item)
            if worker is not None and not self._receive(worker):
                dead[id(worker)] = worker
        for item in ready:
            worker = sentinels.get(item)
            if worker is not None:
                dead[id(worker)] = worker
        for worker in dead.values():
            self._reap(worker)

    def _receive(self, worker: _Worker) -> bool:
        """Read every answer waiting from ``worker``; ``False`` once its pipe is closed."""
        try:
            while worker.results.poll():
                self._handle(worker, worker.results.recv())
        except (EOFError, OSError):
            return False
        return True

    def _handle(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        kind, seq, positions, payload = message
        if worker.outstanding:
            worker.outstanding.popleft()
        batch = self._batches.get(seq)
        if batch is None:
            return
        batch.pending -= 1
        if batch.cancelled:
            self._release_if_done(seq, batch)
            return
        if kind == 'error':
            if batch.error is None:
                batch.error = payload
            return
        if self._view is not None:
            if not self._size_warned and any(_contains_array(e) for e in payload):
                self._size_warned = True
                warnings.warn(
                    f'MultiprocessIterator: an example does not fit in shared_mem '
                    f'({self._region} bytes); its arrays go through a pipe instead. '
                    f'Pass a larger shared_mem.', RuntimeWarning, stacklevel=4)
            payload = [_unpack(e, self._view) for e in payload]
        for position, example in zip(positions, payload, strict=True):
            batch.examples[position] = example

    def _reap(self, worker: _Worker) -> None:
        """A worker exited: accept a retired worker's exit; anything else is an error."""
        self._receive(worker)
        worker.process.join(_WAIT_SECONDS)
        if worker.retiring and not worker.outstanding and not worker.process.is_alive():
            self._retired.remove(worker)
            for conn in (worker.tasks, worker.results):
                conn.close()
            return
        code = worker.process.exitcode
        if code is not None and code < 0:
            try:
                how = f'signal {signal.Signals(-code).name}'
            except ValueError:
                how = f'signal {-code}'
        else:
            how = f'exit code {code}'
        lost = sum(n for _, n in worker.outstanding)
        pid = worker.process.pid
        self.close()
        raise WorkerProcessError(
            f'a worker process of MultiprocessIterator (pid {pid}) died '
            f'({how}) while reading {lost} example(s) of the dataset. A worker is killed '
            f'when the system runs out of memory or the dataset code crashes; the '
            f'iterator starts new workers on the next call.')

    # -- shutting down

    def close(self) -> None:
        """Stop every worker: close its pipes, then terminate, then kill; never blocks long."""
        if self._closed:
            return
        self._closed = True
        everyone = self._workers + self._retired
        for worker in everyone:
            # A stop message, then closing both pipes: reading a task gives the message or
            # EOF, sending an answer gives EPIPE. The message matters when other worker
            # processes (of other iterators) hold copies of the pipe ends, so that EOF
            # never comes. It is sent without blocking: a tiny write is all or nothing.
            with contextlib.suppress(OSError, ValueError):
                os.set_blocking(worker.tasks.fileno(), False)
                worker.tasks.send(None)
            with contextlib.suppress(OSError):
                worker.results.close()
            with contextlib.suppress(OSError):
                worker.tasks.close()
        deadline = time.monotonic() + _STOP_GRACE_SECONDS
        for worker in everyone:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in everyone:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in everyone:
            worker.process.join(1.0)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            with contextlib.suppress(ValueError):
                worker.process.close()
        self._workers = []
        self._retired = []
        self._batches.clear()
        self._view = None
