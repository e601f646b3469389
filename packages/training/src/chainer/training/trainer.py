"""The training loop: runs an updater and fires extensions until a stop trigger."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import reporter as reporter_module
from chainer import serializer as serializer_module
from chainer.training import extension as extension_module
from chainer.training.util import TriggerSpec, _get_time, _optimizer_target, get_trigger

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.extension import Extension
    from chainer.training.updater import Updater


class _ExtensionEntry:
    def __init__(
        self, extension: Any, priority: int, trigger: Any, call_before_training: bool
    ) -> None:
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


class Trainer:
    """The standard training loop.

    :meth:`run` repeats, until ``stop_trigger`` fires: clear
    :attr:`observation`, call ``updater.update()`` with :attr:`reporter`
    reporting into the observation, then call every extension whose trigger
    fires, in decreasing order of priority (ties in registration order).

    The reporter has every optimizer's target link registered under the
    optimizer's name (``'main'``) and its child links under
    ``'main/<path>'``, so a ``Classifier`` reporting ``loss`` produces
    ``'main/loss'``.

    Args:
        updater: The :class:`~chainer.training.Updater`.
        stop_trigger: When to stop: a ``(period, unit)`` tuple, a trigger
            callable, or ``None`` (run until the updater raises).
        out: Output directory of the extensions (created by :meth:`run`).
        extensions: Extensions to register with :meth:`extend` right away.

    Attributes:
        updater: The updater.
        stop_trigger: The stop trigger.
        out (str): The output directory.
        observation (dict): Values reported in the current iteration.
        reporter (chainer.Reporter): The reporter used during updates.

    Example:
        >>> import tempfile
        >>> import numpy as np
        >>> import chainer.links as L
        >>> from chainer import datasets, iterators, optimizers, training
        >>> x = np.eye(4, 2, dtype=np.float32)
        >>> t = np.array([0, 1, 0, 1], np.int32)
        >>> ds = datasets.TupleDataset(x, t)
        >>> model = L.Classifier(L.Linear(2, 2))
        >>> opt = optimizers.SGD()
        >>> opt.setup(model)
        <chainer.optimizers.sgd.SGD object at 0x...>
        >>> it = iterators.SerialIterator(ds, batch_size=2, shuffle=False)
        >>> updater = training.updaters.StandardUpdater(it, opt)
        >>> with tempfile.TemporaryDirectory() as out:
        ...     trainer = training.Trainer(updater, (2, 'iteration'), out=out)
        ...     trainer.run()
        >>> updater.iteration, updater.epoch
        (2, 1)
    """

    def __init__(
        self,
        updater: Updater,
        stop_trigger: TriggerSpec | None = None,
        out: str = 'result',
        extensions: Iterable[Any] | None = None,
    ) -> None:
        self.updater = updater
        self.stop_trigger = get_trigger(stop_trigger)
        self.observation: dict[str, Any] = {}
        self.out = os.fspath(out)
        self.reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            target = _optimizer_target(optimizer)
            self.reporter.add_observer(name, target)
            self.reporter.add_observers(name, target.namedlinks(skipself=True))
        self._done = False
        self._extensions: dict[str, _ExtensionEntry] = {}
        self._start_at: float | None = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time: float | None = None
        self._pending_random_state: tuple[Any, ...] | None = None
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def is_before_training(self) -> bool:
        """Whether no iteration has run yet (``updater.iteration == 0``)."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self) -> float:
        """Seconds spent in :meth:`run`, including the time before a resumed snapshot.

        Raises:
            RuntimeError: if training has not started yet.
        """
        if self._done:
            return self._final_elapsed_time or 0.0
        if self._start_at is None:
            raise RuntimeError('training has not been started yet')
        return _get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(
        self,
        extension: Extension | Callable[[Trainer], Any],
        name: str | None = None,
        trigger: TriggerSpec | None = None,
        priority: int | None = None,
        *,
        call_before_training: bool = False,
        **kwargs: Any,
    ) -> None:
        """Register an extension.

        Args:
            extension: An :class:`~chainer.training.Extension` or any callable
                taking the trainer.
            name: Name of the extension; defaults to ``extension.name``, then
                ``extension.default_name``, then ``extension.__name__``. A
                ``_1``, ``_2``, ... suffix makes a repeated name unique.
            trigger: When to call it; defaults to ``extension.trigger``, then
                ``(1, 'iteration')``.
            priority: Defaults to ``extension.priority``, then
                :data:`~chainer.training.PRIORITY_READER`.
            call_before_training: Also call the extension once before the
                first iteration.

        Raises:
            TypeError: if no name can be found, or for unknown keyword arguments.
            ValueError: for the reserved name ``'training'``.
        """
        if kwargs:
            raise TypeError(f'Trainer.extend got unexpected keyword arguments: {sorted(kwargs)}')
        if name is None:
            name = getattr(extension, 'name', None)
        if name is None:
            name = getattr(extension, 'default_name', None)
        if name is None:
            name = getattr(extension, '__name__', None)
        if name is None:
            raise TypeError('no name is given for the extension and it has none')
        if name == 'training':
            raise ValueError('the name "training" is reserved and cannot name an extension')
        if trigger is None:
            trigger = getattr(extension, 'trigger', None)
            if trigger is None:
                trigger = (1, 'iteration')
        trigger = get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, 'priority', extension_module.PRIORITY_READER)

        unique = name
        ordinal = 0
        while unique in self._extensions:
            ordinal += 1
            unique = f'{name}_{ordinal}'
        named: Any = extension  # an Extension, or a function (which takes any attribute)
        named.name = unique
        self._extensions[unique] = _ExtensionEntry(
            extension, priority, trigger, call_before_training
        )

    def get_extension(self, name: str) -> Any:
        """Return the extension registered as ``name``.

        Raises:
            ValueError: if there is none.
        """
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError(f'extension {name!r} not found')
        return entry.extension

    def run(self, show_loop_exception_msg: bool = True) -> None:
        """Run the training loop until the stop trigger fires.

        Extensions' ``initialize`` is called first, ``finalize`` (and the
        updater's) at the end, also on error. On an exception, extensions'
        ``on_error`` handlers run and the exception is re-raised.

        Args:
            show_loop_exception_msg: Print the exception and its traceback to
                stderr before re-raising it.

        Raises:
            RuntimeError: if the trainer has already run.
        """
        if self._done:
            raise RuntimeError('the training loop of this trainer has already run')
        os.makedirs(self.out, exist_ok=True)

        entries = sorted(self._extensions.values(), key=lambda e: e.priority, reverse=True)
        self._start_at = _get_time()
        # extensions that load a snapshot (snapshot(autoload=True)) initialize first, so
        # the others start from the loaded state (e.g. a schedule's current value)
        loading_first = sorted(entries, key=lambda e: not getattr(e.extension, 'autoload', False))
        for entry in loading_first:
            initializer = getattr(entry.extension, 'initialize', None)
            finished = getattr(entry.trigger, 'finished', False)
            if initializer and not finished:
                initializer(self)
        self._restore_random_state()

        reporter = self.reporter
        update = self.updater.update
        stop_trigger = self.stop_trigger
        failed = False
        try:
            if self.is_before_training:
                self.observation = {}
                with reporter.scope(self.observation):
                    for entry in entries:
                        if entry.call_before_training:
                            entry.extension(self)
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for entry in entries:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            failed = True
            if show_loop_exception_msg:
                print(f'Exception in main training loop: {e}', file=sys.stderr)
                print('Traceback (most recent call last):', file=sys.stderr)
                traceback.print_tb(sys.exc_info()[2], file=sys.stderr)
                print(
                    'Will finalize trainer extensions and updater before reraising the exception.',
                    file=sys.stderr,
                )
            for entry in entries:
                handler = getattr(entry.extension, 'on_error', None)
                if handler:
                    try:
                        handler(self, e, sys.exc_info()[2])
                    except Exception as he:
                        print(f'Exception in error handler: {he}', file=sys.stderr)
                        traceback.print_exc(file=sys.stderr)
            raise
        finally:
            self._final_elapsed_time = self.elapsed_time
            self._done = True
            _finalize_all(
                [getattr(entry.extension, 'finalize', None) for entry in entries]
                + [self.updater.finalize], raise_error=not failed)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the updater, the stop trigger, every extension and its trigger.

        Used by the ``snapshot`` extension and by
        ``chainer.serializers.load_npz(path, trainer)`` to resume training.
        """
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        ext_serializer = serializer['extensions']
        trigger_serializer = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(ext_serializer[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(trigger_serializer[name])
        if isinstance(serializer, serializer_module.Serializer):
            elapsed = self.elapsed_time if self._start_at is not None else (
                self._snapshot_elapsed_time)
            serializer('_snapshot_elapsed_time', elapsed)
            _save_random_state(serializer[_RANDOM_STATE])
        else:
            try:
                self._snapshot_elapsed_time = float(
                    serializer('_snapshot_elapsed_time', self._snapshot_elapsed_time)
                )
            except KeyError:
                self._snapshot_elapsed_time = 0.0
            self._pending_random_state = _load_random_state(serializer)

    def _restore_random_state(self) -> None:
        # NumPy's global random state of a loaded snapshot is set when training starts
        # (after every extension initialized), not while loading: a failed load must not
        # change it, and code running between the load and the first iteration must not
        # consume it
        state = self._pending_random_state
        if state is not None:
            self._pending_random_state = None
            numpy.random.set_state(state)


_RANDOM_STATE = 'numpy_random_state'
"""Group of a trainer snapshot holding NumPy's global random state (not in v7's files)."""


def _save_random_state(serializer: AbstractSerializer) -> None:
    kind, keys, pos, has_gauss, cached_gaussian = numpy.random.get_state()
    serializer('keys', keys)
    serializer('pos', int(pos))
    serializer('has_gauss', int(has_gauss))
    serializer('cached_gaussian', float(cached_gaussian))


def _load_random_state(trainer_serializer: Any) -> tuple[Any, ...] | None:
    """The random state stored in a snapshot, or None for a snapshot without one (v7's).

    Raises:
        ValueError: if the stored state is not one of NumPy's MT19937 generator.
    """
    try:
        serializer = trainer_serializer[_RANDOM_STATE]
        keys = serializer('keys', None)
    except KeyError:
        return None
    pos = int(serializer('pos', 0))
    has_gauss = int(serializer('has_gauss', 0))
    cached_gaussian = float(serializer('cached_gaussian', 0.0))
    keys = numpy.asarray(keys)
    if keys.shape != (624,) or keys.dtype.kind not in 'iu' or not 0 <= pos <= 624:
        describe = getattr(serializer, 'describe', repr)
        raise ValueError(f'{describe("keys")} is not a NumPy random state (624 MT19937 keys '
                         'and a position)')
    return ('MT19937', keys.astype(numpy.uint32), pos, has_gauss, cached_gaussian)


def _finalize_all(finalizers: list[Any], raise_error: bool) -> None:
    """Call every finalizer, even when one fails; then raise the first error.

    With ``raise_error`` false (training already failed, its exception propagates) the
    errors are only printed.
    """
    first: BaseException | None = None
    for finalize in finalizers:
        if finalize is None:
            continue
        try:
            finalize()
        except Exception as e:
            if first is None and raise_error:
                first = e
            else:
                print(f'Exception in finalizer {finalize!r}: {e!r}', file=sys.stderr)
    if first is not None:
        raise first
