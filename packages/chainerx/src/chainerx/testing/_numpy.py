"""Conversion from NumPy that keeps strides (for test data)."""

from __future__ import annotations

from typing import Any

import numpy

from chainerx import _creation
from chainerx._array import make, ndarray
from chainerx._device import resolve


def _fromnumpy(array: numpy.ndarray, keepstrides: bool = False, device: Any = None) -> ndarray:
    """A ChainerX copy of *array* on *device* (its strides kept with *keepstrides*)."""
    dev = resolve(device)
    if not keepstrides or any(s < 0 for s in array.strides):
        return _creation.array(array, device=dev)
    xp = dev.xp
    with dev._scope():
        buffer = xp.empty(_span(array), array.dtype)
        data = xp.lib.stride_tricks.as_strided(buffer, array.shape, array.strides)
        data[...] = array if xp is numpy else xp.asarray(array)
    return make(data, dev)


def _span(array: numpy.ndarray) -> int:
    """Elements a buffer needs to hold *array* with its (non-negative) strides."""
    if array.size == 0:
        return 0
    last = sum((n - 1) * s for n, s in zip(array.shape, array.strides))
    return last // array.itemsize + 1
