"""Initializers: objects that fill new parameter arrays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend
from chainer.initializer import Initializer
from chainer.initializers.constant import Constant, Identity, NaN, One, Zero
from chainer.initializers.normal import GlorotNormal, HeNormal, LeCunNormal, Normal
from chainer.initializers.orthogonal import Orthogonal
from chainer.initializers.sampling import DownsamplingConvFilter, UpsamplingDeconvFilter
from chainer.initializers.uniform import GlorotUniform, HeUniform, LeCunUniform, Uniform

if TYPE_CHECKING:
    from collections.abc import Callable

    from chainer.types import DeviceSpec, DTypeSpec, NdArray, Xp


def generate_array(initializer: Callable[[NdArray], object], shape: tuple[int, ...], xp: Xp,
                   dtype: DTypeSpec | None = None,
                   device: DeviceSpec | None = None) -> NdArray:
    """Allocate an array of ``shape`` and fill it with ``initializer``.

    Args:
        initializer: an :class:`Initializer` (or any callable filling an array).
        shape: the shape.
        xp: the array module (used when ``device`` is None).
        dtype: the dtype (default: the initializer's, else ``config.dtype``).
        device: the device to allocate on (on a ChainerX device, the array is filled
            on its NumPy/CuPy device and returned as a ChainerX array over it).

    Raises:
        ValueError: when ``dtype`` conflicts with the initializer's dtype.
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and numpy.dtype(dtype) != numpy.dtype(
            dtype_attr):
        raise ValueError(f'dtype {numpy.dtype(dtype)} conflicts with the initializer dtype '
                         f'{numpy.dtype(dtype_attr)}')
    if dtype is None:
        dtype = dtype_attr
    dtype = chainer.get_dtype(dtype)
    if device is None:
        device = backend.CpuDevice() if xp is numpy else backend.get_device_from_array(
            xp.empty(0))
    else:
        device = backend.get_device(device)
    if isinstance(device, backend.ChainerxDevice):
        # filled on the NumPy/CuPy device behind it, then viewed as a ChainerX array
        return device.send(generate_array(initializer, shape, device.fallback_device.xp,
                                          dtype, device.fallback_device))
    with device:
        array = device.xp.empty(shape, dtype=dtype)
    initializer(array)
    return array


def _get_initializer(initializer: Any) -> Any:
    """Turn None, a scalar, an array or an initializer into an initializer.

    None gives :class:`LeCunNormal`; a scalar or array gives :class:`Constant`.

    Raises:
        TypeError: for anything else that is not callable.
    """
    if initializer is None:
        return LeCunNormal()
    if isinstance(initializer, (int, float, numpy.number, numpy.bool_)):
        return Constant(initializer)
    if isinstance(initializer, (numpy.ndarray,)) or type(initializer).__name__ == 'ndarray':
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(f'an initializer must be callable, not {type(initializer).__name__}')
    return initializer


__all__ = [
    'Constant', 'DownsamplingConvFilter', 'GlorotNormal', 'GlorotUniform', 'HeNormal',
    'HeUniform', 'Identity', 'Initializer', 'LeCunNormal', 'LeCunUniform', 'NaN', 'Normal',
    'One', 'Orthogonal', 'Uniform', 'UpsamplingDeconvFilter', 'Zero', 'generate_array',
]
