"""TimerHook: measures the time spent in the forward computation of each link."""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from typing import IO, Any

from chainer import backend, internal
from chainer.link_hook import (
    LinkHook,
    _ForwardPostprocessCallbackArgs,
    _ForwardPreprocessCallbackArgs,
)

# (name, size in seconds), largest first.
_TIME_UNITS = (('sec', 1.0), ('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9))


def _synchronize(values: Any) -> None:
    # Wait for pending GPU kernels so that the wall-clock time covers them.
    cupy = backend.cuda.cupy
    if cupy is None:
        return
    for value in values:
        if isinstance(getattr(value, 'array', value), cupy.ndarray):
            cupy.cuda.get_current_stream().synchronize()
            return


class TimerHook(LinkHook):
    """Record how long the ``forward`` of every link takes.

    Use it globally (``with TimerHook() as hook:``) or on one link
    (``link.add_hook(TimerHook())``). Nested links are timed too; the total
    counts only the outermost calls.

    Attributes:
        call_history: ``(link class name, seconds)`` for every finished call.
    """

    name = 'TimerHook'

    def __init__(self) -> None:
        self.call_history: list[tuple[str, float]] = []
        self._starts: list[float] = []
        self._total_time = 0.0

    def forward_preprocess(self, args: _ForwardPreprocessCallbackArgs) -> None:
        """Start the clock of a call."""
        _synchronize(args.args)
        self._starts.append(time.perf_counter())

    def forward_postprocess(self, args: _ForwardPostprocessCallbackArgs) -> None:
        """Stop the clock of the innermost running call and record it."""
        out = args.out if isinstance(args.out, (tuple, list)) else (args.out,)
        _synchronize(out)
        elapsed = time.perf_counter() - self._starts.pop()
        self.call_history.append((type(args.link).__name__, elapsed))
        if not self._starts:
            self._total_time += elapsed

    def total_time(self) -> float:
        """Seconds spent in the outermost link calls."""
        return self._total_time

    def summary(self) -> OrderedDict[str, dict[str, float]]:
        """Per link class: ``{'elapsed_time': seconds, 'occurrence': count}``."""
        result: OrderedDict[str, dict[str, float]] = OrderedDict()
        for name, elapsed in self.call_history:
            record = result.setdefault(name, {'elapsed_time': 0.0, 'occurrence': 0})
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return result

    def print_report(self, unit: str = 'auto', file: IO[str] = sys.stdout) -> None:
        """Print a table: link class name, elapsed time and number of calls.

        Args:
            unit: ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'`` (one unit
                fitting the largest time) or ``'auto_foreach'`` (per row).
            file: where to write.

        Raises:
            ValueError: for an unknown unit.
        """
        summary = self.summary()
        largest = max((e['elapsed_time'] for e in summary.values()), default=0.0)
        auto = internal.report_choose_unit(largest, _TIME_UNITS)
        rows = [(name, internal.report_format_value(e['elapsed_time'], unit, _TIME_UNITS, auto),
                 str(e['occurrence'])) for name, e in summary.items()]
        if not rows:
            internal.report_format_value(0.0, unit, _TIME_UNITS, auto)  # validates unit
        internal.report_print_table(('LinkName', 'ElapsedTime', 'Occurrence'), rows, file)
