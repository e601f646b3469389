"""TimerHook: elapsed time of each function's forward and backward."""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from typing import IO, TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer.function_hook import FunctionHook
from chainer.function_hooks import _report

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode

_TIME_UNITS = (('sec', 1.0), ('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9))


class TimerHook(FunctionHook):
    """Function hook measuring the elapsed time of functions.

    Forward and backward calls are timed (on the GPU with CUDA events, so the
    figures cover the kernels). A call made inside another timed call (a
    function built of functions) is recorded too, but counts once in
    :meth:`total_time`.

    Attributes:
        call_history: list of ``(function class name, elapsed seconds)`` pairs, one
            per forward or backward call.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> from chainer.function_hooks import TimerHook
        >>> x = np.ones((2, 3), np.float32)
        >>> with TimerHook() as timer:
        ...     y = F.relu(F.exp(x))
        >>> [name for name, _ in timer.call_history]
        ['Exp', 'ReLU']
        >>> timer.total_time() >= 0
        True
    """

    name = 'TimerHook'
    table = {name: size for name, size in _TIME_UNITS}

    def __init__(self) -> None:
        self.call_history: list[tuple[str, float]] = []
        self._phases: list[str] = []
        self._running: list[tuple[Any, Any]] = []
        self._depth = 0
        self._total_time = 0.0

    # -- measurement ----------------------------------------------------------------
    def _start(self, arrays: Any) -> None:
        arrays = [a for a in arrays if a is not None]
        xp = backend.get_array_module(*arrays) if arrays else numpy
        if xp is not numpy and cuda.available:
            start = cuda.cupy.cuda.Event()
            start.record()
            self._running.append((xp, start))
        else:
            self._running.append((numpy, time.perf_counter()))
        self._depth += 1

    def _stop(self, function: FunctionNode, phase: str) -> None:
        xp, start = self._running.pop()
        if xp is numpy:
            elapsed = time.perf_counter() - start
        else:
            end = cuda.cupy.cuda.Event()
            end.record()
            end.synchronize()
            elapsed = cuda.cupy.cuda.get_elapsed_time(start, end) / 1000.0
        self.call_history.append((function._impl_name, elapsed))
        self._phases.append(phase)
        self._depth -= 1
        if self._depth == 0:
            self._total_time += elapsed

    def forward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._start(in_data)

    def forward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._stop(function, 'forward')

    def backward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                            out_grad: tuple[Any, ...]) -> None:
        self._start(tuple(in_data) + tuple(out_grad))

    def backward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                             out_grad: tuple[Any, ...]) -> None:
        self._stop(function, 'backward')

    # -- results ------------------------------------------------------------------------
    def total_time(self) -> float:
        """Total elapsed seconds of the (outermost) timed calls."""
        return self._total_time

    def summary(self) -> OrderedDict[str, dict[str, Any]]:
        """Per function name: ``elapsed_time`` (seconds), ``occurrence`` (calls), and the
        ``forward_time`` / ``backward_time`` parts, in order of first call."""
        out: OrderedDict[str, dict[str, Any]] = OrderedDict()
        for (name, elapsed), phase in zip(self.call_history, self._phases):
            entry = out.setdefault(name, {'elapsed_time': 0.0, 'occurrence': 0,
                                          'forward_time': 0.0, 'backward_time': 0.0})
            entry['elapsed_time'] += elapsed
            entry['occurrence'] += 1
            entry[f'{phase}_time'] += elapsed
        return out

    def print_report(self, unit: str = 'auto', file: IO[Any] = sys.stdout) -> None:
        """Print a table: function name, elapsed time and number of calls.

        Args:
            unit: ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'`` (one unit
                fitting the largest time) or ``'auto_foreach'`` (per row).
            file: where to print.
        """
        summary = self.summary()
        largest = max((e['elapsed_time'] for e in summary.values()), default=0.0)
        auto = _report.choose_unit(largest, _TIME_UNITS)
        rows = [(name, _report.format_value(e['elapsed_time'], unit, _TIME_UNITS, auto),
                 str(e['occurrence'])) for name, e in summary.items()]
        if not rows:
            _report.format_value(0.0, unit, _TIME_UNITS, auto)  # validates unit
        _report.print_table(('FunctionName', 'ElapsedTime', 'Occurrence'), rows, file)
