"""Array backends and devices (``chainer.backend``).

Arrays are NumPy arrays on the CPU (``'@numpy'``), CuPy arrays on CUDA devices
(``'@cupy:N'``) or ChainerX arrays on ChainerX devices (``'native:N'``, ``'cuda:N'``,
with the chainerx distribution). iDeep is not provided: its spec raises a
``RuntimeError`` that says so.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import numpy

from chainer.backend import _chainerx
from chainer.backend._chainerx import ChainerxDevice, from_chx, to_chx
from chainer.backend._device import (
    CpuDevice,
    Device,
    GpuDevice,
    Intel64Device,
)
from chainer.backend._spec import get_device, get_device_from_array, using_device
from chainer.backends import cuda

_modules = sys.modules

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import TypeAlias

    from chainer.types import DeviceSpec, NdArray, ScalarValue

    # what transfers take: an array or scalar, None, or a list, tuple or dict of them
    Arrays: TypeAlias = 'NdArray | ScalarValue | None | Sequence[Arrays] | Mapping[Any, Arrays]'

__all__ = [
    'ChainerxDevice', 'CpuDevice', 'Device', 'GpuDevice', 'Intel64Device', 'copyto',
    'cuda', 'from_chx', 'get_array_module', 'get_device', 'get_device_from_array',
    'to_chx', 'to_device', 'using_device',
]


def get_array_module(*args: Any) -> Any:
    """Return ``chainerx`` if any argument is (or wraps) a ChainerX array, else ``cupy``
    if any is (or wraps) a CuPy array, else ``numpy``.

    Variables are looked through (their ``.array`` is checked).
    """
    if 'chainerx' in _modules:  # (no ChainerX array exists before chainerx is imported)
        for arg in args:
            if _chainerx.is_chainerx_array(getattr(arg, 'array', arg)):
                return _modules['chainerx']
    if cuda.cupy is None:
        return numpy
    return cuda.get_array_module(*args)


def to_device(device: DeviceSpec | None, x: Arrays) -> Any:
    """Send ``x`` (an array, or nested tuples/lists/dicts of arrays) to ``device``.

    Args:
        device: None (leave ``x`` where it is), or any spec of :func:`get_device`
            (``'@numpy'``, ``'@cupy:0'``, a Device, an int: negative for the CPU).
        x: the array(s), or None.

    Returns:
        ``x`` on the device (``x`` itself when ``device`` or ``x`` is None).

    Raises:
        ValueError, TypeError, RuntimeError: as :func:`get_device` for a bad or
            unavailable device.
    """
    if device is None or x is None:
        return x
    return get_device(device).send(x)


def copyto(dst: NdArray, src: NdArray) -> None:
    """Copy ``src`` into ``dst`` elementwise, across devices if needed.

    Raises:
        TypeError: when ``dst`` is not an array.
    """
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, CpuDevice().send_array(src))
    elif _chainerx.is_chainerx_array(dst):
        copyto(_chainerx.backing(dst), src)
    elif cuda.cupy is not None and isinstance(dst, cuda.cupy.ndarray):
        with dst.device:
            if isinstance(src, cuda.cupy.ndarray) and src.device.id != dst.device.id:
                src = cuda.cupy.asarray(src)
            cuda.cupy.copyto(dst, cuda.cupy.asarray(src))
    else:
        raise TypeError(f'cannot copy to {type(dst).__name__}: dst must be an array')
