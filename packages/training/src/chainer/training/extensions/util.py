"""Terminal helpers shared by extensions: a redrawable multi-line progress display."""

from __future__ import annotations

import collections
import time
from typing import IO

_ERASE_BELOW = '\033[J'


def flush(out: object) -> None:
    """Flush ``out`` when it can be flushed (a user's stream may have no ``flush``)."""
    method = getattr(out, 'flush', None)
    if method is not None:
        method()


def _cursor_up(n: int) -> str:
    return f'\033[{n}A'


class ProgressBar:
    """Base of progress displays that redraw a few lines in place.

    :meth:`update` erases what is below the cursor, writes the lines of
    :meth:`get_lines` and moves the cursor back up, so the next update
    overwrites them. :meth:`update_speed` estimates speeds from the last 100
    updates.

    Args:
        out: The stream to draw on.
    """

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self._recent_timing: collections.deque[tuple[float, float, float]] = collections.deque(
            maxlen=100
        )

    def get_lines(self) -> list[str]:
        """Return the lines (each ending with a newline) to draw.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement get_lines')

    def update_speed(self, iteration: float, epoch_detail: float) -> tuple[float, float]:
        """Record a time point; return ``(iterations/s, epochs/s)`` over the recent ones.

        The speed is infinite when no time has passed since the oldest point.
        """
        now = time.perf_counter()
        self._recent_timing.append((iteration, epoch_detail, now))
        old_iteration, old_epoch, old_time = self._recent_timing[0]
        span = now - old_time
        if span <= 0:
            return float('inf'), float('inf')
        return (iteration - old_iteration) / span, (epoch_detail - old_epoch) / span

    def start(self, iteration: float, epoch_detail: float) -> None:
        """Record the starting point from which speeds are measured."""
        self._recent_timing.append((iteration, epoch_detail, time.perf_counter()))

    def update(self) -> None:
        """Redraw the display."""
        lines = self.get_lines()
        out = self.out
        out.write(_ERASE_BELOW)
        for line in lines:
            out.write(line)
        out.write(_cursor_up(len(lines)))
        flush(out)

    def close(self) -> None:
        """Erase the display."""
        self.out.write(_ERASE_BELOW)
        flush(self.out)


def _bar(rate: float, length: int) -> str:
    marks = int(rate * length)
    return '#' * marks + '.' * (length - marks)


def format_bar(title: str, rate: float, length: int) -> str:
    """Return one progress line, e.g. ``'     total [####......]  40.00%\\n'``."""
    rate = min(max(rate, 0.0), 1.0)
    return f'{title:>10} [{_bar(rate, length)}] {rate:7.2%}\n'


def estimate_seconds(remaining: float, speed: float) -> float:
    """Return the remaining time in seconds for ``remaining`` work at ``speed`` (>= 0)."""
    if speed == float('inf') or remaining <= 0:
        return 0.0
    if speed <= 0:
        return float('inf')
    return remaining / speed
