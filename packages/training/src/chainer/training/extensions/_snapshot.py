"""The ``snapshot`` and ``snapshot_object`` extensions."""

from __future__ import annotations

import os
import re
import string
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from chainer.training import extension
from chainer.training.extensions import snapshot_writers

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer

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


def _find_snapshot_files(fmt: str, path: str) -> list[tuple[float, str]]:
    """The files of ``path`` whose names ``fmt`` can produce, as ``(mtime, name)``.

    Temporary files and directories of the writers never match. Sorted oldest
    first (by modification time, then by name with numbers in numeric order).
    """
    if not os.path.isdir(path):
        return []
    regex = _filename_regex(fmt)
    found = []
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if regex.fullmatch(name) and os.path.isfile(full):
            found.append((os.stat(full).st_mtime_ns, _natural_key(name), name))
    return [(mtime / 1e9, name) for mtime, _, name in sorted(found)]


def _find_latest_snapshot(fmt: str, path: str) -> str | None:
    """The newest file of ``path`` matching ``fmt``, or None."""
    found = _find_snapshot_files(fmt, path)
    return found[-1][1] if found else None


def _find_stale_snapshots(fmt: str, path: str, n_retains: int) -> Iterator[str]:
    """The files matching ``fmt`` beyond the newest ``n_retains``, oldest first."""
    found = _find_snapshot_files(fmt, path)
    for _, name in found[:max(len(found) - n_retains, 0)]:
        yield name


def _autoload(fmt: str, outdir: str, target: Any) -> str | None:
    """Load the newest complete snapshot of ``outdir`` matching ``fmt`` into ``target``.

    A snapshot that cannot be read (truncated or damaged: ``InvalidFileError``) is
    skipped with a warning and the next older one is tried; the loading itself is
    all or nothing, so a failed try leaves ``target`` unchanged.

    Returns:
        The name loaded, or None when there is no snapshot.

    Raises:
        InvalidFileError: when no matching snapshot is readable (the newest's error).
        KeyError, ValueError, TypeError: when a readable snapshot does not fit
            ``target`` (it was written for another model or trainer).
    """
    names = [name for _, name in _find_snapshot_files(fmt, outdir)]
    serializers = _serializers()
    first_error: Exception | None = None
    for name in reversed(names):
        path = os.path.join(outdir, name)
        try:
            serializers.load_npz(path, target)
        except serializers.InvalidFileError as e:
            warnings.warn(f'snapshot autoload skips {path!r}, which is not a complete '
                          f'snapshot: {e}', stacklevel=3)
            first_error = first_error or e
            continue
        return name
    if first_error is not None:
        raise first_error
    return None


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
        if writer is None:
            writer = snapshot_writers.SimpleWriter(savefun=savefun)
        self.writer = writer
        self.filename = filename
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def initialize(self, trainer: Trainer) -> None:
        """Clean up after crashed writers; with ``autoload``, load the newest snapshot.

        Temporary files left in ``trainer.out`` by writers that were killed are
        removed (:meth:`snapshot_writers.Writer.initialize`). With ``autoload``,
        the newest complete file matching ``filename`` is loaded into the target
        (a damaged one is skipped with a warning).
        """
        initialize = getattr(self.writer, 'initialize', None)
        if callable(initialize):
            initialize(trainer.out)
        if not self.autoload or not isinstance(self.filename, str):
            return
        target = trainer if self._target is None else self._target
        _autoload(self.filename, trainer.out, target)

    def __call__(self, trainer: Trainer) -> None:
        """Save the snapshot, unless ``condition()`` is false."""
        if self._condition is None or self._condition():
            self._make_snapshot(trainer)

    def on_error(self, trainer: Trainer, exc: BaseException, tb: Any) -> None:
        """Save a snapshot when training fails, if ``snapshot_on_error`` was set."""
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def finalize(self) -> None:
        """Finalize the writer."""
        self.writer.finalize()

    def _make_snapshot(self, trainer: Trainer) -> None:
        target = trainer if self._target is None else self._target
        if callable(self.filename):
            filename = self.filename(trainer)
        else:
            filename = self.filename.format(trainer)
        self.writer(filename, trainer.out, target)
        if self.n_retains > 0 and isinstance(self.filename, str):
            for name in _find_stale_snapshots(self.filename, trainer.out, self.n_retains):
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
        autoload (keyword): At the start of training, load the newest complete
            file matching ``filename`` (a string) in ``trainer.out`` into the
            target with :func:`chainer.serializers.load_npz`, if there is one
            (a damaged file is skipped with a warning; temporary files of
            writers never match).

    Returns:
        The snapshot extension.

    Raises:
        TypeError: for an unknown keyword argument, or both ``savefun`` and
            ``writer`` (the writer has its own saving function).
    """
    target = kwargs.pop('target', None)
    condition = kwargs.pop('condition', None)
    writer = kwargs.pop('writer', None)
    snapshot_on_error = kwargs.pop('snapshot_on_error', False)
    n_retains = kwargs.pop('n_retains', -1)
    autoload = kwargs.pop('autoload', False)
    if kwargs:
        raise TypeError(f'snapshot got unexpected keyword arguments: {sorted(kwargs)}')
    if savefun is not None and writer is not None:
        raise TypeError('snapshot takes either savefun or writer, not both: give the saving '
                        'function to the writer (e.g. SimpleWriter(savefun=...))')
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
