"""Helpers shared by the array functions (private)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.utils import type_check
from chainer.variable import Variable


def check_axis(axis: int, ndim: int, name: str = 'axis', extra: int = 0) -> int:
    """Return ``axis`` in ``[0, ndim + extra)``; raise InvalidType when out of range.

    ``extra`` is 1 for functions that insert an axis (``stack``, ``expand_dims``).
    """
    n = ndim + extra
    if not -n <= axis < n:
        raise type_check.InvalidType(f'{-n} <= {name} < {n}', f'{name} = {axis}',
                                     f'{name} {axis} is out of bounds for an input of '
                                     f'{ndim} dimension(s) (valid: {-n} <= {name} < {n})')
    return axis % n


def as_int(value: Any, name: str) -> int:
    """``value`` as a Python int; TypeError for anything that is not an integer."""
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, numpy.integer)):
        raise TypeError(f'{name} must be an int, not {type(value).__name__}')
    return int(value)


def as_int_tuple(value: Any, name: str) -> tuple[int, ...]:
    """An int or a sequence of ints as a tuple of Python ints."""
    if isinstance(value, (int, numpy.integer)) and not isinstance(value, bool):
        return (int(value),)
    try:
        return tuple(as_int(v, name) for v in value)
    except TypeError:
        raise TypeError(f'{name} must be an int or a sequence of ints, not {value!r}') from None


def raw(x: Any) -> Any:
    """The array of a Variable, or the argument itself."""
    return x.array if isinstance(x, Variable) else x


def check_inputs(label: str, names: tuple[str, ...], arrays: tuple[Any, ...],
                 check: Any) -> None:
    """Run ``check(in_types)`` on ``arrays`` like a FunctionNode's type check would.

    For compositions of other functions that still want a named InvalidType.
    """
    from chainer.configuration import config

    if not config.type_check:
        return
    in_types = type_check.get_types(arrays, 'in_types', False)
    type_check.argname(in_types, names)
    with type_check.get_function_check_context(_Label(label)):
        check(in_types)


class _Label:
    def __init__(self, label: str) -> None:
        self.label = label


def has_integer_index(slices: tuple[Any, ...]) -> bool:
    """Whether an index tuple holds an integer array (so that targets may repeat)."""
    return any(getattr(s, 'ndim', 0) > 0 and s.dtype.kind in 'iu' for s in slices)


def bool_to_nonzero(slices: tuple[Any, ...]) -> tuple[Any, ...]:
    """Replace boolean index arrays by their ``nonzero()`` integer arrays (same meaning)."""
    out: list[Any] = []
    for s in slices:
        if getattr(s, 'dtype', None) is not None and s.dtype == numpy.bool_ and s.ndim > 0:
            out.extend(s.nonzero())
        else:
            out.append(s)
    return tuple(out)


def index_add(a: Any, slices: Any, b: Any) -> None:
    """``a[slices] += b`` in place, where repeated targets accumulate (``add.at``)."""
    xp = backend.get_array_module(a)
    if xp is numpy:
        numpy.add.at(a, slices, b)
        return
    if isinstance(slices, tuple):
        slices = bool_to_nonzero(slices)
    if a.dtype == numpy.float16:
        # atomics on half precision are not available everywhere: go through float32
        tmp = a.astype(numpy.float32)
        _cupy_add_at(xp, tmp, slices, b.astype(numpy.float32))
        a[...] = tmp
    else:
        _cupy_add_at(xp, a, slices, b)


def _cupy_add_at(xp: Any, a: Any, slices: Any, b: Any) -> None:
    at = getattr(xp.add, 'at', None)
    if at is not None:
        at(a, slices, b)
    else:  # older CuPy
        import cupyx

        cupyx.scatter_add(a, slices, b)


def array_module_of(*values: Any) -> Any:
    """The array module of the first non-None value."""
    for v in values:
        if v is not None:
            return backend.get_array_module(raw(v))
    return numpy
