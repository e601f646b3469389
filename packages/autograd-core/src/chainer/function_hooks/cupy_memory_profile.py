"""CupyMemoryProfileHook: memory each function takes from CuPy's memory pool."""

from __future__ import annotations

import sys
from collections import OrderedDict
from typing import IO, TYPE_CHECKING, Any

from chainer.backends import cuda
from chainer.function_hook import FunctionHook
from chainer.function_hooks import _report

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode

_BYTE_UNITS = tuple((u, float(1024 ** i)) for i, u in reversed(list(enumerate(
    ('B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB')))))


class CupyMemoryCumulativeHook:
    """A CuPy memory hook adding up the bytes taken from, and by, the memory pool.

    Inside ``with hook:`` it is registered among CuPy's memory hooks of the thread:
    every allocation from the pool adds its size to :attr:`used_bytes`, every
    allocation the pool makes from the device adds to :attr:`acquired_bytes`.

    Attributes:
        used_bytes: bytes handed out by the pool (``malloc``).
        acquired_bytes: bytes the pool took from the device (``alloc``).
    """

    name = 'CupyMemoryCumulativeHook'

    def __init__(self) -> None:
        self.used_bytes = 0
        self.acquired_bytes = 0
        self._cupy_hook: Any = None

    def __enter__(self) -> CupyMemoryCumulativeHook:
        if not cuda.available:
            raise RuntimeError('CupyMemoryCumulativeHook needs CUDA: install CuPy '
                               '(chainer[cuda12] or chainer[cuda13])')
        # CuPy calls hooks of its own MemoryHook class: register one forwarding here.
        owner = self

        class _Forward(cuda.cupy.cuda.memory_hook.MemoryHook):
            name = owner.name

            def alloc_preprocess(self, **kwargs: Any) -> None:
                owner.alloc_preprocess(**kwargs)

            def malloc_preprocess(self, **kwargs: Any) -> None:
                owner.malloc_preprocess(**kwargs)

        self._cupy_hook = _Forward()
        self._cupy_hook.__enter__()
        return self

    def __exit__(self, *args: Any) -> None:
        hook, self._cupy_hook = self._cupy_hook, None
        if hook is not None:
            hook.__exit__(*args)

    def alloc_preprocess(self, **kwargs: Any) -> None:
        """Count ``mem_size`` bytes the pool acquires from the device."""
        self.acquired_bytes += int(kwargs['mem_size'])

    def alloc_postprocess(self, **kwargs: Any) -> None:
        """Called by CuPy after the device allocation; nothing to count."""

    def malloc_preprocess(self, **kwargs: Any) -> None:
        """Count ``mem_size`` bytes handed out by the pool."""
        self.used_bytes += int(kwargs['mem_size'])

    def malloc_postprocess(self, **kwargs: Any) -> None:
        """Called by CuPy after the pool allocation; nothing to count."""

    def free_preprocess(self, **kwargs: Any) -> None:
        """Called by CuPy before memory returns to the pool; the counts are cumulative."""

    def free_postprocess(self, **kwargs: Any) -> None:
        """Called by CuPy after memory returned to the pool."""


class CupyMemoryProfileHook(FunctionHook):
    """Function hook measuring the memory functions use from CuPy's default memory pool.

    For each forward and backward call it records the bytes newly used from
    the pool and the bytes the pool newly acquired from the device.

    Attributes:
        call_history: list of ``(function name, used bytes, acquired bytes)``.

    Raises:
        RuntimeError: when CUDA (CuPy with a device) is not available.
    """

    name = 'CupyMemoryProfileHook'

    def __init__(self) -> None:
        if not cuda.available:
            raise RuntimeError('CupyMemoryProfileHook needs CUDA: install CuPy '
                               '(chainer[cuda12] or chainer[cuda13]) and run on a machine '
                               'with a CUDA device')
        self._pool = cuda.cupy.get_default_memory_pool()
        self.call_history: list[tuple[str, int, int]] = []
        self._running: list[tuple[int, int]] = []
        self._depth = 0
        self._total_used = 0
        self._total_acquired = 0

    def _start(self) -> None:
        self._running.append((self._pool.used_bytes(), self._pool.total_bytes()))
        self._depth += 1

    def _stop(self, function: FunctionNode) -> None:
        used0, total0 = self._running.pop()
        used = self._pool.used_bytes() - used0
        acquired = self._pool.total_bytes() - total0
        self.call_history.append((function._impl_name, used, acquired))
        self._depth -= 1
        if self._depth == 0:
            self._total_used += used
            self._total_acquired += acquired

    def forward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._start()

    def forward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._stop(function)

    def backward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                            out_grad: tuple[Any, ...]) -> None:
        self._start()

    def backward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                             out_grad: tuple[Any, ...]) -> None:
        self._stop(function)

    def total_used_bytes(self) -> int:
        """Bytes used from the pool by the (outermost) recorded calls."""
        return self._total_used

    def total_acquired_bytes(self) -> int:
        """Bytes the pool acquired from the device during the (outermost) recorded calls."""
        return self._total_acquired

    def summary(self) -> OrderedDict[str, dict[str, int]]:
        """Per function name: ``used_bytes``, ``acquired_bytes`` and ``occurrence``."""
        out: OrderedDict[str, dict[str, int]] = OrderedDict()
        for name, used, acquired in self.call_history:
            entry = out.setdefault(name, {'used_bytes': 0, 'acquired_bytes': 0,
                                          'occurrence': 0})
            entry['used_bytes'] += used
            entry['acquired_bytes'] += acquired
            entry['occurrence'] += 1
        return out

    def print_report(self, unit: str = 'auto', file: IO[Any] = sys.stdout) -> None:
        """Print a table: function name, used bytes, acquired bytes, number of calls.

        Args:
            unit: ``'B'``, ``'KB'``, ... ``'YB'``, ``'auto'`` or ``'auto_foreach'``.
            file: where to print.
        """
        summary = self.summary()
        largest = max((max(e['used_bytes'], e['acquired_bytes']) for e in summary.values()),
                      default=0)
        auto = _report.choose_unit(largest, _BYTE_UNITS)
        rows = [(name, _report.format_value(e['used_bytes'], unit, _BYTE_UNITS, auto),
                 _report.format_value(e['acquired_bytes'], unit, _BYTE_UNITS, auto),
                 str(e['occurrence'])) for name, e in summary.items()]
        if not rows:
            _report.format_value(0, unit, _BYTE_UNITS, auto)  # validates unit
        _report.print_table(('FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence'), rows,
                            file)
