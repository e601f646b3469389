"""The ``snapshot`` and ``snapshot_object`` extensions."""

from __future__ import annotations

import os
import re
import string
from collections.abc import Callable
from typing import Any

from chainer.training import extension
from chainer.training.extensions import snapshot_writers

PRIORITY_SNAPSHOT = -100
"""Snapshots run after every other extension of the iteration, so they see its final state."""


def _serializers() -> Any:
    try:
        from chainer import serializers
    except ImportError as e:  # pragma: no cover - declared dependency
        raise ModuleNotFoundError(
            'snapshot() saves with chainer.serializers.save_npz, which is provided by the '
            'chainer-serializers package: pip install chainer-serializers'
        ) from e
    return serializers


def _default_savefun(path: str, target: Any) -> None:
    _serializers().save_npz(path, target)


def _default_loadfun(path: str, target: Any) -> None:
    _serializers().load_npz(path, target)


def _filename_regex(fmt: str) -> re.Pattern[str]:
    """Regex matching the names ``fmt.format(trainer)`` can produce (fields match anything)."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(fmt):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append('.+?')
    return re.compile(''.join(parts))


def _natural_key(name: str) -> list[Any]:
    return [(0, int(tok), '') if tok.isdigit() else (1, 0, tok)
            for tok in re.split(r'(\d+)', name)]


def _find_snapshots(fmt: str, outdir: str) -> list[str]:
    """Return the files of ``outdir`` matching ``fmt``, oldest first."""
    if not os.path.isdir(outdir):
        return []
    regex = _filename_regex(fmt)
    found = []
    for name in os.listdir(outdir):
        path = os.path.join(outdir, name)
        if regex.fullmatch(name) and os.path.isfile(path):
            found.append((os.stat(path).st_mtime_ns, _natural_key(name), name))
    return [name for _, _, name in sorted(found)]


class _Snapshot(extension.Extension):
    """Extension that saves ``target`` (the trainer by default) to ``trainer.out``."""

    trigger = (1, 'epoch')
    priority = PRIORITY_SNAPSHOT

    def __init__(
        self,
        target: Any = None,
        condition: Callable[[], bool] | None = None,
        writer: snapshot_writers.Writer | None = None,
        filename: str | Callable[[Any], str] = 'snapshot_iter_{.updater.iteration}',
        snapshot_on_error: bool = False,
        savefun: Callable[..., Any] | None = None,
        n_retains: int = -1,
        autoload: bool = False,
    ) -> None:
        self._target = target
        self._condition = condition
        self.writer = writer if writer is not None else snapshot_writers.SimpleWriter()
        self.filename = filename
        self._snapshot_on_error = snapshot_on_error
        self._savefun = savefun if savefun is not None else _default_savefun
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer: Any) -> None:
        """With ``autoload``, load the newest matching snapshot of ``trainer.out``."""
        if not self.autoload or not isinstance(self.filename, str):
            return
        found = _find_snapshots(self.filename, trainer.out)
        if found:
            target = trainer if self._target is None else self._target
            _default_loadfun(os.path.join(trainer.out, found[-1]), target)

    def __call__(self, trainer: Any) -> None:
        """Save the snapshot, unless ``condition()`` is false."""
        if self._condition is None or self._condition():
            self._make_snapshot(trainer)

    def on_error(self, trainer: Any, exc: BaseException, tb: Any) -> None:
        """Save a snapshot when training fails, if ``snapshot_on_error`` was set."""
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def finalize(self) -> None:
        """Finalize the writer."""
        self.writer.finalize()

    def _make_snapshot(self, trainer: Any) -> None:
        target = trainer if self._target is None else self._target
        if callable(self.filename):
            filename = self.filename(trainer)
        else:
            filename = self.filename.format(trainer)
        self.writer(filename, trainer.out, target, savefun=self._savefun)
        if self.n_retains > 0 and isinstance(self.filename, str):
            found = _find_snapshots(self.filename, trainer.out)
            for name in found[: -self.n_retains]:
                os.remove(os.path.join(trainer.out, name))


def snapshot(
    savefun: Callable[..., Any] | None = None,
    filename: str | Callable[[Any], str] = 'snapshot_iter_{.updater.iteration}',
    **kwargs: Any,
) -> _Snapshot:
    """Return an extension that saves a snapshot of the trainer.

    The default trigger is ``(1, 'epoch')``. The file is written to
    ``trainer.out`` atomically; load it back with
    ``chainer.serializers.load_npz(path, trainer)`` before ``trainer.run()``
    to resume training where the snapshot was taken.

    Args:
        savefun: ``savefun(path, target)``; :func:`chainer.serializers.save_npz`
            by default.
        filename: File name, formatted with ``str.format(trainer)`` (so
            ``'{.updater.epoch}'`` works) or a callable taking the trainer.
        target (keyword): Object to save instead of the trainer.
        condition (keyword): Callable without arguments; the snapshot is only
            taken when it returns true.
        writer (keyword): A :class:`snapshot_writers.Writer`
            (:class:`~snapshot_writers.SimpleWriter` by default).
        snapshot_on_error (keyword): Also take a snapshot when training fails.
        n_retains (keyword): If positive, keep only the newest ``n_retains``
            files matching ``filename`` (a string) in ``trainer.out``.
        autoload (keyword): At the start of training, load the newest file
            matching ``filename`` (a string) in ``trainer.out`` into the
            target with :func:`chainer.serializers.load_npz`, if there is one.

    Returns:
        The snapshot extension.

    Raises:
        TypeError: for an unknown keyword argument.
    """
    target = kwargs.pop('target', None)
    condition = kwargs.pop('condition', None)
    writer = kwargs.pop('writer', None)
    snapshot_on_error = kwargs.pop('snapshot_on_error', False)
    n_retains = kwargs.pop('n_retains', -1)
    autoload = kwargs.pop('autoload', False)
    if kwargs:
        raise TypeError(f'snapshot got unexpected keyword arguments: {sorted(kwargs)}')
    return _Snapshot(
        target=target,
        condition=condition,
        writer=writer,
        filename=filename,
        snapshot_on_error=snapshot_on_error,
        savefun=savefun,
        n_retains=n_retains,
        autoload=autoload,
    )


def snapshot_object(
    target: Any, filename: str | Callable[[Any], str], savefun: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> _Snapshot:
    """Return an extension that saves ``target`` (e.g. a model) instead of the trainer.

    Same as ``snapshot(savefun=savefun, filename=filename, target=target, **kwargs)``;
    the file name is still formatted with the trainer.
    """
    return snapshot(savefun=savefun, filename=filename, target=target, **kwargs)
