"""The CPU (NumPy) device and host copies, at the module path Chainer v7 defined them in.

Chainer v7 code imports ``from chainer.backends import _cpu`` to reach
:class:`CpuDevice` (it is :class:`chainer.backend.CpuDevice`) and its helpers
``_to_cpu`` / ``_array_to_cpu``.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer.backend._device import CpuDevice

__all__ = ['CpuDevice']


def _array_to_cpu(array: Any) -> Any:
    """Return ``array`` as a NumPy array (None stays None).

    Raises:
        TypeError: for an object that is not an array or a scalar.
    """
    if array is None:
        return None
    if isinstance(array, numpy.ndarray):
        return array
    if numpy.isscalar(array):
        return numpy.asarray(array)
    get = getattr(array, 'get', None)  # a CuPy array: copied to the host
    if callable(get) and hasattr(array, 'shape'):
        return get()
    raise TypeError(f'an array or a scalar is expected, got {type(array).__name__}')


def _to_cpu(array: Any) -> Any:
    """Return ``array`` as a NumPy array, or a list or tuple of arrays as one of NumPy
    arrays (the v7 helper of ``to_cpu``; None items stay None).

    Raises:
        TypeError: for an object that is not an array or a scalar.
    """
    if isinstance(array, (list, tuple)):
        return type(array)(_array_to_cpu(a) for a in array)
    return _array_to_cpu(array)
