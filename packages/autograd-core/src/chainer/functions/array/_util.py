"""Helpers shared by the array functions (private)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.functions._util import as_int as as_int
from chainer.functions._util import as_int_tuple as as_int_tuple
from chainer.functions._util import check_axis as check_axis
from chainer.functions._util import expect_noted
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, GradOutputs, NdArray, Shape
    from chainer.variable import Variable


def expect_inputs(in_types: Any, message: str) -> int:
    """The number of inputs; InvalidType when there is none (v7's ``in_types.size > 0``,
    with ``message`` as an exception note)."""
    expect_noted(lambda: message, in_types.size() > 0)
    return type_check.eval(in_types.size())


def fill_grads(grad_outputs: GradOutputs, shapes: Iterable[Shape],
               dtype: DTypeSpec) -> list[Variable | NdArray] | None:
    """``grad_outputs`` with each None replaced by zeros of its shape (from ``shapes``).

    Returns:
        The list of gradients, or None when every gradient is None.
    """
    for g in grad_outputs:
        if g is not None:
            xp = backend.get_array_module(g.array)
            return [xp.zeros(shape, dtype) if gy is None else gy
                    for gy, shape in zip(grad_outputs, shapes)]
    return None


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
