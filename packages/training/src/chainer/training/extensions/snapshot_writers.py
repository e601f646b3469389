"""Snapshot writers: how the ``snapshot`` extension puts a file on disk.

Every writer saves through :meth:`Writer.save`: a temporary file in the output
directory, flushed to disk, then renamed to its final name, so a process killed at
any moment leaves either the previous file or the complete new one.

- :class:`SimpleWriter` saves in the training process, before training goes on.
- :class:`ThreadWriter` and :class:`ProcessWriter` (both :class:`StandardWriter`)
  save in one new thread or process per snapshot; the next snapshot first waits for
  the previous one.
- :class:`ThreadQueueWriter` and :class:`ProcessQueueWriter` (both
  :class:`QueueWriter`) hand snapshots to one long-lived consumer thread or process.

The background writers save a copy of the target's state taken when the snapshot
is requested (see :mod:`._frozen_state`), so training can go on while the file is
written and the file still holds one consistent iteration. This holds for the
saving functions of :mod:`chainer.serializers` (``save_npz``, the default, and
``save_hdf5``); another ``savefun`` receives the live target, as in Chainer v7.
A failed background save is raised (``RuntimeError``) at the next snapshot or when
the writer is finalized.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer.backends import files
from chainer.training.extensions._frozen_state import freeze

if TYPE_CHECKING:
    import multiprocessing.queues
    from typing import TypeAlias

    from chainer.serializer import Serializable

    # where a queue writer puts its tasks for the consumer
    TaskQueue: TypeAlias = queue.Queue[Any] | multiprocessing.queues.JoinableQueue[Any]


def _save_npz(path: str, target: Serializable, **kwds: Any) -> None:
    from chainer import serializers

    serializers.save_npz(path, target, **kwds)


def _serializes_target(savefun: Callable[..., Any]) -> bool:
    """Whether ``savefun`` only uses ``target.serialize`` (so a frozen state can stand in)."""
    if savefun is _save_npz:
        return True
    try:
        from chainer import serializers
    except ImportError:  # pragma: no cover - declared dependency
        return False
    return savefun in (serializers.save_npz, serializers.save_hdf5)


def _save_file(filename: str, outdir: str, target: Serializable, savefun: Callable[..., Any],
               kwds: dict[str, Any]) -> None:
    with files.atomic_path(os.path.join(outdir, filename)) as tmp_path:
        savefun(tmp_path, target, **kwds)


class Writer:
    """Base class of snapshot writers.

    A writer is called as ``writer(filename, outdir, target)`` and saves ``target``
    to ``outdir/filename``; subclasses choose when and where (this or another
    thread or process). :meth:`save` does the atomic write.
    """

    def __call__(self, filename: str, outdir: str, target: Serializable,
                 savefun: Callable[..., Any] | None = None) -> None:
        """Write the snapshot.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __call__')

    def initialize(self, outdir: str) -> None:
        """Prepare ``outdir`` before training: remove the temporary files that writers
        killed while saving (on this host) left behind.

        Called by the snapshot extension when the trainer starts; :meth:`save` also
        cleans a directory once per process before its first write.
        """
        files.remove_stale(outdir)

    def save(self, filename: str, outdir: str, target: Serializable, savefun: Callable[..., Any],
             **kwds: Any) -> None:
        """Save ``target`` atomically: write a temporary file, flush it, then rename it.

        Args:
            filename: File name relative to ``outdir``.
            outdir: Output directory (created if missing).
            target: The object to save.
            savefun: Called as ``savefun(path, target, **kwds)``.
        """
        _save_file(filename, outdir, target, savefun, kwds)

    def finalize(self) -> None:
        """Called when the snapshot extension is finalized (no-op by default)."""


class SimpleWriter(Writer):
    """Writer that saves the snapshot synchronously in the training process.

    Args:
        savefun: Saving function ``savefun(path, target, **kwds)``;
            :func:`chainer.serializers.save_npz` by default.
        **kwds: Extra keyword arguments passed to the saving function.
    """

    def __init__(self, savefun: Callable[..., Any] | None = None, **kwds: Any) -> None:
        self._savefun = savefun if savefun is not None else _save_npz
        self._kwds = kwds

    def __call__(self, filename: str, outdir: str, target: Serializable,
                 savefun: Callable[..., Any] | None = None) -> None:
        """Save ``target`` to ``outdir/filename`` (with ``savefun`` if given, else the
        writer's own saving function)."""
        savefun = savefun if savefun is not None else self._savefun
        self.save(filename, outdir, target, savefun, **self._kwds)


class StandardWriter(Writer):
    """Base of writers that save each snapshot in a new worker (thread or process).

    Each call waits for the previous worker, then starts a new one made by
    :meth:`create_worker`; :meth:`finalize` waits for the last one.

    Args:
        savefun: Saving function ``savefun(path, target, **kwds)``;
            :func:`chainer.serializers.save_npz` by default.
        **kwds: Extra keyword arguments passed to the saving function.
    """

    def __init__(self, savefun: Callable[..., Any] | None = None, **kwds: Any) -> None:
        self._savefun = savefun if savefun is not None else _save_npz
        self._kwds = kwds
        self._worker: Any = None
        self._started = False
        self._finalized = False

    def __call__(self, filename: str, outdir: str, target: Serializable,
                 savefun: Callable[..., Any] | None = None) -> None:
        """Wait for the previous snapshot, then save this one in a new worker.

        Raises:
            RuntimeError: if the previous worker failed to save its snapshot.
        """
        self._join()
        if savefun is not None:
            self._savefun = savefun
        if _serializes_target(self._savefun):
            target = freeze(target)
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()
        self._started = True
        self._finalized = False

    def create_worker(self, filename: str, outdir: str, target: Serializable, **kwds: Any) -> Any:
        """Return an unstarted worker (with ``start`` and ``join``) saving ``target``.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement create_worker')

    def _check_worker(self, worker: Any) -> None:
        """Raise if the finished ``worker`` failed (subclasses know how to tell)."""

    def _join(self) -> None:
        if not self._started:
            return
        worker = self._worker
        self._started = False
        worker.join()
        self._check_worker(worker)

    def finalize(self) -> None:
        """Wait for the snapshot being written.

        Raises:
            RuntimeError: if it could not be saved.
        """
        if not self._finalized:
            self._finalized = True
            self._join()


class _SaveThread(threading.Thread):
    """Thread that saves one snapshot and keeps the exception it failed with."""

    def __init__(self, args: tuple[Any, ...]) -> None:
        super().__init__(name='chainer-snapshot-writer', daemon=False)
        self._save_args = args
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            _save_file(*self._save_args)
        except BaseException as e:  # reported by the writer in the training thread
            self.error = e


class ThreadWriter(StandardWriter):
    """Writer that saves each snapshot in a new thread.

    Args:
        savefun: Saving function ``savefun(path, target, **kwds)``;
            :func:`chainer.serializers.save_npz` by default.
        **kwds: Extra keyword arguments passed to the saving function.
    """

    def create_worker(self, filename: str, outdir: str, target: Serializable, **kwds: Any) -> Any:
        """Return an unstarted :class:`threading.Thread` saving ``target``."""
        return _SaveThread((filename, outdir, target, self._savefun, kwds))

    def _check_worker(self, worker: Any) -> None:
        error = getattr(worker, 'error', None)
        if isinstance(error, BaseException):
            raise RuntimeError(f'the snapshot writer thread failed: {error!r}') from error


class ProcessWriter(StandardWriter):
    """Writer that saves each snapshot in a new process (:mod:`multiprocessing`).

    With a start method other than ``fork``, the saving function must be picklable
    (the default is).

    Args:
        savefun: Saving function ``savefun(path, target, **kwds)``;
            :func:`chainer.serializers.save_npz` by default.
        **kwds: Extra keyword arguments passed to the saving function.
    """

    def create_worker(self, filename: str, outdir: str, target: Serializable, **kwds: Any) -> Any:
        """Return an unstarted :class:`multiprocessing.Process` saving ``target``."""
        return multiprocessing.Process(
            target=_save_file, args=(filename, outdir, target, self._savefun, kwds),
            name='chainer-snapshot-writer')

    def _check_worker(self, worker: Any) -> None:
        code = getattr(worker, 'exitcode', 0)
        if isinstance(code, int) and code != 0:
            raise RuntimeError(f'the snapshot writer process failed (exit code {code})')


class QueueWriter(Writer):
    """Base of writers that hand snapshots to one long-lived consumer.

    The consumer (:meth:`create_consumer`) is started at construction and runs
    :meth:`consume` over the queue of :meth:`create_queue`; each call puts a task
    ``[task, filename, outdir, target]`` in the queue; :meth:`finalize` puts ``None``
    and waits until every snapshot is written.

    Args:
        savefun: Saving function ``savefun(path, target)``;
            :func:`chainer.serializers.save_npz` by default.
        task: A callable ``task(filename, outdir, target)`` doing the save;
            ``SimpleWriter(savefun)`` by default.
    """

    def __init__(self, savefun: Callable[..., Any] | None = None,
                 task: Callable[..., Any] | None = None) -> None:
        self._errors: list[BaseException] = []
        self._savefun = savefun if savefun is not None else _save_npz
        self._task = self.create_task(self._savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._started = True
        self._finalized = False

    def _raise_errors(self) -> None:
        if self._errors:
            error = self._errors[0]
            self._errors.clear()
            raise RuntimeError(f'the snapshot writer failed to save a snapshot: {error!r}') \
                from error

    def __call__(self, filename: str, outdir: str, target: Serializable,
                 savefun: Callable[..., Any] | None = None) -> None:
        """Queue the snapshot (a copy of the target's state taken now).

        Raises:
            RuntimeError: if an earlier snapshot could not be saved.
        """
        self._raise_errors()
        task = self._task if savefun is None else SimpleWriter(savefun)
        if _serializes_target(savefun if savefun is not None else self._savefun):
            target = freeze(target)
        self._queue.put([task, filename, outdir, target])

    def create_task(self, savefun: Callable[..., Any]) -> Callable[..., Any]:
        """Return the callable that saves one queued snapshot (a :class:`SimpleWriter`)."""
        return SimpleWriter(savefun=savefun)

    def create_queue(self) -> Any:
        """Return the queue of tasks.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement create_queue')

    def create_consumer(self, q: TaskQueue) -> Any:
        """Return the unstarted consumer (with ``start`` and ``join``) running :meth:`consume`.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement create_consumer')

    def consume(self, q: TaskQueue) -> None:
        """Run queued tasks until ``None`` is taken from ``q``; mark each one done.

        A task that fails is reported on stderr and kept (raised by the writer later);
        the following tasks still run.
        """
        self._errors.extend(_run_tasks(q))

    def finalize(self) -> None:
        """Wait until every queued snapshot is written and stop the consumer.

        Raises:
            RuntimeError: if a snapshot could not be saved.
        """
        if self._started and not self._finalized:
            self._queue.put(None)
            self._queue.join()
            self._consumer.join()
            self._started = False
            self._finalized = True
            code = getattr(self._consumer, 'exitcode', None)
            if isinstance(code, int) and code != 0:
                raise RuntimeError(f'the snapshot writer process failed to save a snapshot '
                                   f'(exit code {code})')
            self._raise_errors()
        self._finalized = True


class ThreadQueueWriter(QueueWriter):
    """Writer that saves snapshots one after another in a consumer thread.

    Args:
        savefun: Saving function; :func:`chainer.serializers.save_npz` by default.
        task: A callable ``task(filename, outdir, target)``; ``SimpleWriter(savefun)``
            by default.
    """

    def create_queue(self) -> Any:
        """Return a :class:`queue.Queue`."""
        return queue.Queue()

    def create_consumer(self, q: TaskQueue) -> Any:
        """Return the consumer :class:`threading.Thread`."""
        return threading.Thread(target=self.consume, args=(q,),
                                name='chainer-snapshot-queue', daemon=True)


class ProcessQueueWriter(QueueWriter):
    """Writer that saves snapshots one after another in a consumer process.

    Args:
        savefun: Saving function (picklable); :func:`chainer.serializers.save_npz`
            by default.
        task: A picklable callable ``task(filename, outdir, target)``;
            ``SimpleWriter(savefun)`` by default.
    """

    def create_queue(self) -> Any:
        """Return a :class:`multiprocessing.JoinableQueue`."""
        return multiprocessing.JoinableQueue()

    def create_consumer(self, q: TaskQueue) -> Any:
        """Return the consumer :class:`multiprocessing.Process`."""
        return multiprocessing.Process(target=_consume, args=(q,),
                                       name='chainer-snapshot-queue', daemon=True)


def _run_tasks(q: TaskQueue) -> list[BaseException]:
    """Run the tasks of ``q`` until ``None``; return the exceptions of those that failed."""
    errors: list[BaseException] = []
    while True:
        task = q.get()
        try:
            if task is None:
                return errors
            try:
                task[0](task[1], task[2], task[3])
            except Exception as e:
                traceback.print_exc(file=sys.stderr)
                errors.append(e)
        finally:
            q.task_done()


def _consume(q: TaskQueue) -> None:
    # body of the consumer process: its exit code tells whether every snapshot was saved
    if _run_tasks(q):
        sys.exit(1)
