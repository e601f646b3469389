"""The NumPy/CuPy array behind a ``chainerx.ndarray``, and back, without copying.

Internal API for Chainer's integration (``chainer.backend``, ``chainer.Variable``): it runs
Chainer's functions on the backing arrays (v7's NumPy/CuPy fallback) and presents the
results as ChainerX arrays. Both directions share memory and carry no graph.
"""

from __future__ import annotations

from typing import Any

from chainerx._array import make, ndarray
from chainerx._device import Device

__all__ = ['backing', 'wrap']


def backing(array: ndarray) -> Any:
    """The NumPy (native device) or CuPy (cuda device) array holding *array*'s data: the
    same memory, shape and strides, not a copy."""
    return array._data


def wrap(data: Any, device: Device) -> ndarray:
    """A ChainerX array on *device* over *data*, a NumPy array (native devices) or a CuPy
    array on that GPU (cuda devices), sharing its memory; it is in no graph.

    The caller guarantees that *data* is of *device*'s backend (nothing is checked here).
    """
    return make(data, device)
