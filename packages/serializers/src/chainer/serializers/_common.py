"""Helpers shared by the NPZ and HDF5 serializers."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend


def to_host(value: Any) -> Any:
    """Return ``value`` with a device array copied to a NumPy array."""
    if isinstance(value, numpy.ndarray) or value is None:
        return value
    cupy = backend.cuda.cupy
    if cupy is not None and isinstance(value, cupy.ndarray):
        return value.get()
    return value


def restore(value: Any, stored: Any, key: str) -> Any:
    """Load the stored array ``stored`` into (or in place of) ``value``.

    Arrays are filled in place; Python scalars and other values are rebuilt
    with their own type, refusing an unsafe numeric cast.

    Raises:
        ValueError: when an array's shape does not match the stored one.
        TypeError: when the stored number cannot be cast to the value's type.
    """
    if value is None:
        return stored
    if isinstance(value, numpy.ndarray):
        if value.shape != stored.shape:
            raise ValueError(
                f'cannot load {key!r}: the stored array has shape {stored.shape} but the '
                f'target has shape {value.shape}')
        numpy.copyto(value, stored)
        return value
    cupy = backend.cuda.cupy
    if cupy is not None and isinstance(value, cupy.ndarray):
        if value.shape != stored.shape:
            raise ValueError(
                f'cannot load {key!r}: the stored array has shape {stored.shape} but the '
                f'target has shape {value.shape}')
        value.set(numpy.asarray(stored, dtype=value.dtype))
        return value
    value_type = type(value)
    arr = numpy.asarray(stored)
    kind = arr.dtype.type
    if (issubclass(kind, numpy.number)
            and not (issubclass(kind, numpy.integer) and value_type is int)
            and not numpy.can_cast(arr.dtype, numpy.dtype(value_type))):
        raise TypeError(
            f'cannot load {key!r}: the stored value of dtype {arr.dtype} cannot be cast to '
            f'{value_type.__name__} safely')
    if arr.ndim == 0 and value_type in (int, float, bool, complex, str):
        return value_type(arr.item())
    return value_type(arr)
