"""Dataset of the lines of one or more text files."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from chainer.dataset.dataset_mixin import DatasetMixin
from chainer.datasets import _fork

__all__ = ['TextDataset']


def _per_file(name: str, value: Any, n: int) -> list[Any]:
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ValueError(f'TextDataset: {name} has {len(value)} entries for {n} files')
        return list(value)
    return [value] * n


class TextDataset(DatasetMixin):
    """Dataset whose ``i``-th example is the ``i``-th line of a text file (``'...\\n'``).

    With several files, an example is the tuple of their ``i``-th lines; the files must
    have the same number of lines. The files stay open (lines are read on demand from
    offsets found when the dataset is made); :meth:`close` closes them. A pickled
    dataset, and one inherited by a forked process, reopens its files.

    Args:
        paths: A path, or a list of paths.
        encoding: Encoding of the files (one for all, or a list with one per file).
        errors: How to handle decoding errors (as :func:`open`; one or a list).
        newline: Newline handling (as :func:`open`; one or a list). The default
            ``None`` turns ``'\\r\\n'`` into ``'\\n'``.
        filter_func: ``filter_func(line)`` (one argument per file) returning whether to
            keep the example.

    Raises:
        ValueError: the files have different numbers of lines, or a per-file option
            list has the wrong length.
        OSError: a file cannot be opened.
    """

    def __init__(self, paths: str | Sequence[str], encoding: str | Sequence[str] | None = None,
                 errors: str | Sequence[str] | None = None,
                 newline: str | Sequence[str] | None = None,
                 filter_func: Callable[..., bool] | None = None) -> None:
        single = isinstance(paths, str)
        self._paths = [paths] if isinstance(paths, str) else list(paths)
        if not self._paths:
            raise ValueError('TextDataset needs at least one path')
        n = len(self._paths)
        self._encoding = _per_file('encoding', encoding, n)
        self._errors = _per_file('errors', errors, n)
        self._newline = _per_file('newline', newline, n)
        self._single = single or n == 1
        self._lock = threading.Lock()
        self._fps: list[Any] = []
        self._open()
        offsets = [self._line_offsets(fp) for fp in self._fps]
        counts = {len(o) for o in offsets}
        if len(counts) > 1:
            self.close()
            raise ValueError(f'TextDataset: the files have different numbers of lines: '
                             f'{[len(o) for o in offsets]}')
        rows = list(zip(*offsets, strict=True))
        if filter_func is not None:
            rows = [row for row in rows if filter_func(*self._read_row(row))]
        self._rows = rows
        _fork.register(self)

    def _open(self) -> None:
        self._fps = [
            open(path, encoding=encoding, errors=errors, newline=newline)  # noqa: SIM115
            for path, encoding, errors, newline in zip(
                self._paths, self._encoding, self._errors, self._newline, strict=True)]

    @staticmethod
    def _line_offsets(fp: Any) -> list[int]:
        offsets: list[int] = []
        while True:
            position = fp.tell()
            if not fp.readline():
                return offsets
            offsets.append(position)

    def _read_row(self, row: tuple[int, ...]) -> list[str]:
        with self._lock:
            lines = []
            for fp, offset in zip(self._fps, row, strict=True):
                fp.seek(offset)
                lines.append(fp.readline())
        return lines

    def __len__(self) -> int:
        """Number of (kept) lines."""
        return len(self._rows)

    def get_example(self, i: int) -> str | tuple[str, ...]:
        """The ``i``-th line (with its newline), or the tuple of lines for several files.

        Raises:
            ValueError: the dataset was closed.
        """
        lines = self._read_row(self._rows[i])
        return lines[0] if self._single else tuple(lines)

    def close(self) -> None:
        """Close every file (all of them are tried; the first error is raised)."""
        error: BaseException | None = None
        for fp in self._fps:
            try:
                fp.close()
            except Exception as exc:
                if error is None:
                    error = exc
        if error is not None:
            raise error

    def _after_fork(self) -> None:
        # Reopen in a forked child, so that its reads do not move the parent's offsets.
        self._lock = threading.Lock()
        if any(fp is not None and not fp.closed for fp in self._fps):
            self._open()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state['_fps'], state['_lock']
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
        self._open()
        _fork.register(self)
