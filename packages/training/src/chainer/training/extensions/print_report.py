"""The ``PrintReport`` extension: prints selected log entries as a table."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from chainer.training import extension
from chainer.training.extensions import log_report as log_report_module
from chainer.training.extensions import util

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer

_ERASE_BELOW = '\033[J'


class PrintReport(extension.Extension):
    """Print the entries of a :class:`LogReport` as a table.

    A header with the entry names is printed first; then, whenever the log
    has grown, one row per new log entry. Each column is
    ``max(10, len(name))`` characters wide, columns are separated by two
    spaces, numbers use the ``g`` format and missing values are left blank.
    Every row is preceded by the ANSI "erase below" sequence so that a
    :class:`ProgressBar` drawn underneath is cleared.

    Args:
        entries: The log keys to print, in column order.
        log_report: The :class:`LogReport` to read, or the name under which it
            was registered in the trainer (``'LogReport'`` by default).
        out: Stream to write to (``sys.stdout`` by default).
    """

    def __init__(
        self,
        entries: Sequence[str],
        log_report: str | log_report_module.LogReport = 'LogReport',
        out: IO[str] = sys.stdout,
    ) -> None:
        self._entries = list(entries)
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        widths = [max(10, len(entry)) for entry in self._entries]
        self._widths = widths
        self._header: str | None = (
            '  '.join(entry.ljust(w) for entry, w in zip(self._entries, widths, strict=True))
            .rstrip() + '\n'
        )

    def get_log_report(self, trainer: Trainer) -> log_report_module.LogReport:
        """Return the :class:`LogReport` this extension reads.

        Raises:
            ValueError: if no extension of that name is registered.
            TypeError: if ``log_report`` is neither a name nor a LogReport.
        """
        log_report = self._log_report
        if isinstance(log_report, str):
            return trainer.get_extension(log_report)
        if isinstance(log_report, log_report_module.LogReport):
            return log_report
        raise TypeError(f'log_report has a wrong type: {type(log_report).__name__}')

    def __call__(self, trainer: Trainer) -> None:
        """Print the header (once) and any log entries not printed yet."""
        out = self._out
        if self._header is not None:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)  # a LogReport not registered in the trainer is driven here
        log = self.get_log_report(trainer).log
        while len(log) > self._log_len:
            out.write(_ERASE_BELOW)
            self._print(log[self._log_len])
            self._log_len += 1
        util.flush(out)

    def _print(self, observation: dict[str, Any]) -> None:
        cells = []
        for entry, width in zip(self._entries, self._widths, strict=True):
            if entry in observation:
                value = observation[entry]
                try:
                    text = format(value, f'<{width}g')
                except (TypeError, ValueError):
                    text = str(value).ljust(width)
                cells.append(text + '  ')
            else:
                cells.append(' ' * (width + 2))
        self._out.write(''.join(cells) + '\n')  # v7 keeps each cell's padding

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the state of a LogReport given directly as ``log_report``."""
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])
