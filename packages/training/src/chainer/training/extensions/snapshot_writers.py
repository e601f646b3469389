"""Snapshot writers: how the ``snapshot`` extension puts a file on disk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.training.extensions._atomic_file import atomic_path


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

    def save(
        self, filename: str, outdir: str, target: Any, savefun: Callable[..., Any], **kwds: Any
    ) -> None:
        """Save ``target`` atomically: write a temporary file, then rename it.

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
        savefun: Default saving function (used when the extension gives none).
        **kwds: Extra keyword arguments passed to the saving function.
    """

    def __init__(self, savefun: Callable[..., Any] | None = None, **kwds: Any) -> None:
        self._savefun = savefun
        self._kwds = kwds

    def __call__(
        self, filename: str, outdir: str, target: Any, savefun: Callable[..., Any] | None = None
    ) -> None:
        """Save ``target`` to ``outdir/filename`` with ``savefun``.

        Raises:
            ValueError: if no saving function is known.
        """
        savefun = savefun if savefun is not None else self._savefun
        if savefun is None:
            raise ValueError('SimpleWriter needs a savefun')
        self.save(filename, outdir, target, savefun, **self._kwds)
