"""Private helpers shared by every category of functions (input type checks)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chainer.configuration import config
from chainer.utils import type_check


def expect_float(in_types: Any, names: tuple[str, ...] = ('x',)) -> None:
    """Type-check that every input is a floating-point array (and all share a dtype)."""
    type_check.argname(in_types, names)
    for t in in_types:
        type_check.expect(t.dtype.kind == 'f')
    for t in in_types[1:]:
        type_check.expect(in_types[0].dtype == t.dtype)


class _Label:
    def __init__(self, label: str) -> None:
        self.label = label


def check_types(label: str, names: Sequence[str], arrays: Sequence[Any],
                check: Callable[..., None]) -> None:
    """Run ``check(*in_types)`` with type_check on ``arrays`` (when enabled).

    For functions written as compositions of others, so that they report bad
    inputs like a FunctionNode: TypeError for a non-array, and
    :class:`~chainer.utils.type_check.InvalidType` named after ``label``.
    """
    if not config.type_check:
        return
    for name, a in zip(names, arrays):
        if not hasattr(a, 'dtype') or not hasattr(a, 'shape'):
            raise TypeError(f'{label}: {name} must be a Variable or an array, '
                            f'not {type(a).__name__}')
    in_types = type_check.get_types(arrays, 'in_types', False)
    type_check.argname(in_types, tuple(names))
    with type_check.get_function_check_context(_Label(label)):
        check(*in_types)
