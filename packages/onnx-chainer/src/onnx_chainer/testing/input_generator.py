"""Monotonically increasing test inputs: every element differs, so a wrong index,
axis or order in an export shows in the values."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


def _size(shape: tuple[int, ...]) -> int:
    return int(numpy.prod(shape, dtype=numpy.int64))


def increasing(*shape: int, dtype: DTypeSpec = numpy.float32) -> numpy.ndarray:
    """Values rising evenly from -1 to 1 (row-major), of the given shape and dtype."""
    n = _size(shape)
    return numpy.linspace(-1.0, 1.0, n).reshape(shape).astype(dtype)


def nonzero_increasing(*shape: int, dtype: DTypeSpec = numpy.float32) -> numpy.ndarray:
    """Rising values in [-1, 1] of which none is zero."""
    n = _size(shape)
    values = numpy.linspace(-1.0, 1.0, n + (n % 2))[:n]
    return values.reshape(shape).astype(dtype)


def positive_increasing(*shape: int, dtype: DTypeSpec = numpy.float32) -> numpy.ndarray:
    """Rising values in (0, 1]."""
    n = _size(shape)
    return numpy.linspace(0.0, 1.0, n + 1)[1:].reshape(shape).astype(dtype)
