"""Snapshot writers: how the ``snapshot`` extension puts a file on disk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.training.extensions._atomic_file import atomic_path, remove_stale


def _save_npz(path: str, target: Any, **kwds: Any) -> None:
    from chainer import serializers

    serializers.save_npz(path, target, **kwds)


class Writer:
    """Base class of snapshot writers.

    A writer is called as ``writer(filename, outdir, target, savefun=...)``
    and saves ``target`` to ``outdir/filename`` with ``savefun(path, target)``.
    """

    def __call__(
        self, filename: str, outdir: str, target: Any, savefun: Callable[..., Any] | None = None
    ) -> None:
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
        remove_stale(outdir)

    def save(
        self, filename: str, outdir: str, target: Any, savefun: Callable[..., Any], **kwds: Any
    ) -> None:
        """Save ``target`` atomically: write a temporary file, flush it, then rename it.

        Args:
            filename: File name relative to ``outdir``.
            outdir: Output directory (created if missing).
            target: The object to save.
            savefun: Called as ``savefun(path, target, **kwds)``.
        """
        with atomic_path(outdir, filename) as tmp_path:
            savefun(tmp_path, target, **kwds)

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

    def __call__(
        self, filename: str, outdir: str, target: Any, savefun: Callable[..., Any] | None = None
    ) -> None:
        """Save ``target`` to ``outdir/filename`` (with ``savefun`` if given, else the
        writer's own saving function)."""
        savefun = savefun if savefun is not None else self._savefun
        self.save(filename, outdir, target, savefun, **self._kwds)
