"""``chainerx.random``: arrays of random numbers from NumPy's (or CuPy's) global generator."""

from __future__ import annotations

from typing import Any

from chainerx import _dtypes
from chainerx._array import make, ndarray
from chainerx._device import resolve

__all__ = ['normal', 'uniform']


def _draw(method: str, args: tuple[Any, ...], size: Any, dtype: Any, device: Any) -> ndarray:
    dev = resolve(device)
    dt = _dtypes.to_dtype('float64' if dtype is None else dtype)
    with dev._scope():
        data = getattr(dev.xp.random, method)(*args, size=size).astype(dt, copy=False)
    return make(dev.xp.asarray(data), dev)


def uniform(low: float = 0.0, high: float = 1.0, size: Any = None, dtype: Any = None,
            device: Any = None) -> ndarray:
    """Samples from the uniform distribution on ``[low, high)`` (default dtype float64)."""
    return _draw('uniform', (low, high), size, dtype, device)


def normal(loc: float = 0.0, scale: float = 1.0, size: Any = None, dtype: Any = None,
           device: Any = None) -> ndarray:
    """Samples from the normal distribution (default dtype float64)."""
    return _draw('normal', (loc, scale), size, dtype, device)
