"""Tables of per-function figures, shared by the profiling hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any


def choose_unit(value: float, units: Sequence[tuple[str, float]]) -> tuple[str, float]:
    """The largest unit (name, size) in which ``value`` is at least 1 (else the smallest)."""
    for name, size in units:
        if abs(value) >= size:
            return name, size
    return units[-1]


def format_value(value: float, unit: str, units: Sequence[tuple[str, float]],
                 auto_unit: tuple[str, float] | None) -> str:
    """``value`` written in ``unit`` (``'auto'``: ``auto_unit``; ``'auto_foreach'``: its own)."""
    table = dict(units)
    if unit == 'auto':
        name, size = auto_unit or units[-1]
    elif unit == 'auto_foreach':
        name, size = choose_unit(value, units)
    elif unit in table:
        name, size = unit, table[unit]
    else:
        raise ValueError(f'unit must be one of {[u for u, _ in units]}, "auto" or '
                         f'"auto_foreach", not {unit!r}')
    return f'{value / size:.2f}{name}'


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], file: IO[Any]) -> None:
    """Print right-aligned columns."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print('  '.join(str(cell).rjust(w) for cell, w in zip(row, widths)), file=file)
