"""Parsing device specifiers into :class:`Device` objects."""

from __future__ import annotations

import contextlib
import re
import types
from collections.abc import Iterator
from typing import Any

import numpy

from chainer.backend import _chainerx
from chainer.backend._device import _CPU, Device, GpuDevice, _not_provided
from chainer.backends import cuda

_SPEC_HELP = (
    "a device spec is '@numpy', '@cupy:N', a ChainerX device name ('native:0', 'cuda:N'), "
    'a Device, a chainerx.Device, numpy, (cupy, N), a cupy.cuda.Device, or an int or its '
    'string (negative for the CPU, N for CUDA device N)')
_LEGACY_ID = re.compile(r'-?[0-9]+')


def _parse_int(text: str, spec: Any) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f'invalid device spec {spec!r}: {_SPEC_HELP}') from None
    if value < 0:
        raise ValueError(f'invalid device spec {spec!r}: the device id must be >= 0')
    return value


def get_device(device_spec: Any) -> Device:
    """Return the :class:`Device` named by ``device_spec``.

    Args:
        device_spec: ``'@numpy'``, ``'@cupy:N'``, a ChainerX device name
            (``'native'``, ``'native:N'``, ``'cuda:N'``), a :class:`Device`, a
            ``chainerx.Device``, the ``numpy`` module, ``(cupy, N)``, a
            ``cupy.cuda.Device``, or an int or a string of one (negative: CPU;
            N >= 0: CUDA device N, as v7's legacy ``device=`` arguments and
            ``'-1'`` / ``'0'`` command-line values).

    Returns:
        The device.

    Raises:
        ValueError: for a malformed ``'@...'`` spec, a name of no ChainerX device, or
            a tuple other than ``(cupy, N)`` (v7's ``('native', 0)`` included).
        TypeError: for a spec of another type (``cuda.DummyDevice`` included, as in v7).
        RuntimeError: for an iDeep spec, a CUDA spec without CUDA, or a ChainerX name
            (any other string) without the chainerx distribution.
    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, str):
        if device_spec == '@numpy':
            return _CPU
        if device_spec.startswith('@cupy:'):
            return GpuDevice.from_device_id(_parse_int(device_spec[6:], device_spec))
        if device_spec == '@intel64':
            raise _not_provided('iDeep (@intel64)')
        if _LEGACY_ID.fullmatch(device_spec):
            return get_device(int(device_spec))
        if device_spec.startswith('@'):
            raise ValueError(f'invalid device spec {device_spec!r}: {_SPEC_HELP}')
        # v7 reads any other string as a ChainerX device name ('native:0', 'cuda:1')
        return _chainerx.from_name(device_spec)
    if isinstance(device_spec, bool):
        raise TypeError(f'invalid device spec {device_spec!r}: {_SPEC_HELP}')
    if isinstance(device_spec, (int, numpy.integer)):
        return _CPU if device_spec < 0 else GpuDevice.from_device_id(int(device_spec))
    if device_spec is numpy:
        return _CPU
    if isinstance(device_spec, types.ModuleType):
        if device_spec is cuda.cupy and cuda.cupy is not None:
            return GpuDevice.from_device_id(cuda.cupy.cuda.runtime.getDevice())
        raise ValueError(f'invalid device spec {device_spec!r}: {_SPEC_HELP}')
    if isinstance(device_spec, tuple) and len(device_spec) == 2:
        module, index = device_spec
        if module is numpy:
            raise ValueError(f'invalid device spec {device_spec!r}: numpy takes no device id')
        if cuda.cupy is not None and module is cuda.cupy:
            return GpuDevice.from_device_id(index)
        if getattr(module, '__name__', '') == 'cupy':
            cuda.check_cuda_available()
        raise ValueError(f'invalid device spec {device_spec!r}: {_SPEC_HELP}')
    if cuda.cupy is not None and isinstance(device_spec, cuda.cupy.cuda.Device):
        return GpuDevice(device_spec)
    chx = _chainerx.chainerx_module()
    if chx is not None and isinstance(device_spec, getattr(chx, 'Device', ())):
        return _chainerx.of(device_spec)
    raise TypeError(f'invalid device spec {device_spec!r}: {_SPEC_HELP}')


def get_device_from_array(*arrays: Any) -> Device:
    """Return the device of the first array (or Variable) on a GPU or a ChainerX device,
    else the CPU."""
    for array in arrays:
        array = getattr(array, 'array', array)
        if cuda.cupy is not None and isinstance(array, cuda.cupy.ndarray):
            return GpuDevice(array.device)
        if _chainerx.is_chainerx_array(array):
            return _chainerx.of(array.device)
    return _CPU


def using_device(device_spec: Any) -> contextlib.AbstractContextManager[Device]:
    """Context manager that makes the device of ``device_spec`` current.

    Raises:
        ValueError, TypeError, RuntimeError: at once (not on entering), as
            :func:`get_device` for a bad or unavailable spec.
    """
    return _using(get_device(device_spec))


@contextlib.contextmanager
def _using(device: Device) -> Iterator[Device]:
    with device.create_context():
        yield device
