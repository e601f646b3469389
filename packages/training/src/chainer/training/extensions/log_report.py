"""The ``LogReport`` extension: aggregates observations and writes a JSON log."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from chainer import serializer as serializer_module
from chainer.backends import files
from chainer.training.extensions._summary_report import _SummaryReport

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer
    from chainer.training.util import TriggerSpec


class LogReport(_SummaryReport):
    """Accumulate reported values and append their means to a log.

    Called every iteration, it adds the trainer's observation to a running
    summary. When its own ``trigger`` fires, it computes the mean of every
    value, adds ``'epoch'``, ``'iteration'`` and ``'elapsed_time'``, appends
    the dict to :attr:`log` and rewrites ``trainer.out/filename`` as a JSON
    list of all entries (atomically).

    Args:
        keys: Keys to collect; ``None`` collects every reported value.
        trigger: When to emit an entry; ``(1, 'epoch')`` by default.
        postprocess: Called with each entry (a dict) before it is stored;
            may modify it in place.
        filename: Name of the log file in ``trainer.out``, formatted with the
            entry (``'log_{iteration}'``); ``'log'`` by default. The deprecated
            keyword ``log_name`` is accepted too; ``None`` through it disables
            writing.

    Raises:
        TypeError: for an unknown keyword argument.

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
        >>> from chainer.training import extensions
        >>> with tempfile.TemporaryDirectory() as out:
        ...     trainer = training.Trainer(updater, (2, 'iteration'), out=out)
        ...     trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
        ...     trainer.run()
        >>> log = trainer.get_extension('LogReport').log
        >>> [entry['iteration'] for entry in log]
        [1, 2]
        >>> sorted(log[0])
        ['elapsed_time', 'epoch', 'iteration', 'main/accuracy', 'main/loss']
    """

    def __init__(
        self,
        keys: Iterable[str] | None = None,
        trigger: TriggerSpec = (1, 'epoch'),
        postprocess: Callable[[dict[str, Any]], Any] | None = None,
        filename: str | None = None,
        **kwargs: Any,
    ) -> None:
        log_name = kwargs.pop('log_name', 'log')
        if kwargs:
            raise TypeError(f'LogReport got unexpected keyword arguments: {sorted(kwargs)}')
        self._postprocess = postprocess
        self._log_name = filename if filename is not None else log_name
        self._log: list[dict[str, Any]] = []
        self._init_report(None if keys is None else list(keys), trigger)

    @property
    def log(self) -> list[dict[str, Any]]:
        """The entries emitted so far (a list of dicts)."""
        return self._log

    def __call__(self, trainer: Trainer) -> None:
        """Add the current observation; emit and write an entry when the trigger fires."""
        entry = self._observe(trainer)
        if entry is None:
            return
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            filename = self._log_name.format(**entry)
            with files.atomic_open(os.path.join(trainer.out, filename), 'w') as f:
                json.dump(self._log, f, indent=4)
        self._init_summary()

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the trigger state, the running summary and the log."""
        self._serialize_summary(serializer, 'LogReport')
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_log', json.dumps(self._log))
        else:
            text = str(serializer('_log', ''))
            self._log = json.loads(text) if text else []
