"""ChainerX devices (``native:N``, ``cuda:N``) and the conversions to and from them.

A ChainerX array here is a view of a NumPy array (native devices) or a CuPy array (cuda
devices): ``to_chx`` and ``from_chx`` convert between the two without copying, through
``chainerx.internal`` (the internal API the chainerx distribution keeps for Chainer).
``chainerx`` is an optional distribution: it is imported only when a ChainerX device is
asked for, and no ChainerX array can exist before it is imported.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import numpy

from chainer.backend._device import _CPU, Device, GpuDevice, _send_nested
from chainer.backends import cuda

_modules = sys.modules


def chainerx_module() -> Any:
    """The ``chainerx`` module if it has been imported (None otherwise)."""
    return _modules.get('chainerx')


def is_chainerx_array(x: Any) -> bool:
    """Whether ``x`` is a ``chainerx.ndarray`` (False while chainerx is not imported)."""
    chx = _modules.get('chainerx')
    if chx is None:
        return False
    cls = getattr(chx, 'ndarray', None)
    return isinstance(cls, type) and isinstance(x, cls)


def import_chainerx() -> Any:
    """Import ``chainerx`` (RuntimeError naming the distribution when it is missing)."""
    try:
        import chainerx  # layout: optional[chainerx]
    except ImportError:
        raise RuntimeError(
            'ChainerX is not available: install the chainerx distribution '
            '(pip install chainerx, or chainer, which installs it)') from None
    return chainerx


def _backing_module() -> Any:
    import chainerx.internal  # layout: optional[chainerx]

    return chainerx.internal


def backing(array: Any) -> Any:
    """The NumPy/CuPy array holding a ChainerX array's data (the same memory)."""
    return _backing_module().backing(array)


def wrap(data: Any, device: Any) -> Any:
    """A ChainerX array on ``device`` (a ``chainerx.Device``) viewing ``data``, an array
    of that device's backend."""
    return _backing_module().wrap(data, device)


class ChainerxDevice(Device):
    """A ChainerX device (``native:N`` or ``cuda:N``): arrays are ``chainerx.ndarray``.

    Chainer runs its functions on the NumPy or CuPy array behind each ChainerX array
    (v7's fallback), on :attr:`fallback_device`.

    Args:
        device: a ``chainerx.Device``.

    Raises:
        TypeError: when ``device`` is not a ``chainerx.Device``.
    """

    def __init__(self, device: Any) -> None:
        chx = import_chainerx()
        if not isinstance(device, chx.Device):
            raise TypeError(f'ChainerxDevice takes a chainerx.Device, not '
                            f'{type(device).__name__}')
        self.device = device
        self.xp = chx
        self.supported_array_types = (chx.ndarray,)
        if device.backend.name == 'native':
            self.fallback_device: Device = _CPU
        else:
            self.fallback_device = GpuDevice.from_device_id(device.index)

    @property
    def name(self) -> str:  # type: ignore[override]
        """The ChainerX device name, e.g. ``'native:0'``."""
        return str(self.device.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChainerxDevice) and other.device is self.device

    def __hash__(self) -> int:
        return hash((ChainerxDevice, self.device.name))

    def __repr__(self) -> str:
        return f'<ChainerxDevice {self.device.name}>'

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _device_from_name, (self.device.name,)

    @staticmethod
    def from_array(array: Any) -> ChainerxDevice | None:
        """The device of a ChainerX ``array``; None for anything else."""
        if is_chainerx_array(array):
            return of(array.device)
        return None

    @staticmethod
    def from_fallback_device(device: Device) -> ChainerxDevice:
        """The ChainerX device over ``device``: ``native:0`` for the CPU, ``cuda:N`` for
        GPU N.

        Raises:
            RuntimeError: for another kind of device.
        """
        chx = import_chainerx()
        if isinstance(device, GpuDevice):
            return of(chx.get_device('cuda', device.device.id))
        if device.xp is numpy and not isinstance(device, ChainerxDevice):
            return of(chx.get_device('native', 0))
        raise RuntimeError(f'{device!r} has no ChainerX counterpart')

    def create_context(self) -> Any:
        """A context making this the default ChainerX device (and, for ``cuda:N``, GPU N
        current)."""
        return _ChainerxScope(self)

    def send_array(self, array: Any) -> Any:
        """``array`` as a ChainerX array on this device; NumPy (native) and CuPy (same
        GPU) arrays are viewed, not copied.

        Raises:
            chainerx.DtypeError: for a dtype ChainerX does not have (e.g. uint16).
        """
        device = self.device
        if is_chainerx_array(array):
            if array.device is device:
                return array
            return array.to_device(device)
        data = self.fallback_device.send_array(array)
        if data.dtype not in _supported_dtypes():
            return self.xp.array(data, device=device)  # raises ChainerX's DtypeError
        return wrap(data, device)

    def use(self) -> None:
        """Make this the default ChainerX device (and its GPU current for ``cuda``)."""
        self.xp.set_default_device(self.device)
        if isinstance(self.fallback_device, GpuDevice):
            self.fallback_device.use()

    def synchronize(self) -> None:
        """Wait for the work queued on this device."""
        self.device.synchronize()


class _ChainerxScope:
    def __init__(self, device: ChainerxDevice) -> None:
        self._device = device
        self._scopes: list[contextlib.ExitStack] = []

    def __enter__(self) -> ChainerxDevice:
        device = self._device
        with contextlib.ExitStack() as stack:
            stack.enter_context(device.xp.using_device(device.device))
            if isinstance(device.fallback_device, GpuDevice):
                stack.enter_context(device.fallback_device.create_context())
            self._scopes.append(stack.pop_all())
        return device

    def __exit__(self, *exc: Any) -> None:
        self._scopes.pop().__exit__(*exc)


_DEVICES: dict[Any, ChainerxDevice] = {}
_DTYPES: list[Any] = []


def _supported_dtypes() -> Any:
    if not _DTYPES:
        chx = import_chainerx()
        _DTYPES.append(frozenset(numpy.dtype(t) for t in (
            chx.bool_, chx.int8, chx.int16, chx.int32, chx.int64, chx.uint8,
            chx.float16, chx.float32, chx.float64)))
    return _DTYPES[0]


def of(chx_device: Any) -> ChainerxDevice:
    """The (cached) ChainerxDevice of a ``chainerx.Device``."""
    device = _DEVICES.get(chx_device)
    if device is None:
        device = _DEVICES[chx_device] = ChainerxDevice(chx_device)
    return device


def from_name(spec: str) -> ChainerxDevice:
    """The ChainerxDevice named ``spec`` (``'native'``, ``'native:0'``, ``'cuda:1'``).

    Raises:
        RuntimeError: when chainerx is not installed, or the backend cannot be used
            (``cuda`` without CuPy and a GPU).
        ValueError: for a malformed name or one of no device.
    """
    chx = import_chainerx()
    try:
        return of(chx.get_device(spec))
    except chx.BackendError as e:
        if spec.partition(':')[0] == 'cuda':
            raise RuntimeError(f'ChainerX device {spec!r} is not available: {e}') from None
        raise ValueError(f'invalid ChainerX device spec {spec!r}: {e}') from None
    except (chx.ChainerxError, ValueError, TypeError) as e:
        raise ValueError(f'invalid ChainerX device spec {spec!r}: {e}') from None


def _device_from_name(name: str) -> ChainerxDevice:
    return from_name(name)


def to_chx(array: Any) -> Any:
    """NumPy and CuPy arrays (nested in tuples, lists, dicts) as ChainerX arrays on
    ``native:0`` / ``cuda:N``, sharing memory; other values are returned as they are."""
    return _send_nested(array, _to_chx_one)


def _to_chx_one(array: Any) -> Any:
    if isinstance(array, numpy.ndarray):
        device = ChainerxDevice.from_fallback_device(_CPU)
    elif cuda.cupy is not None and isinstance(array, cuda.cupy.ndarray):
        device = ChainerxDevice.from_fallback_device(GpuDevice(array.device))
    else:
        return array
    return device.send_array(array)


def from_chx(array: Any) -> Any:
    """ChainerX arrays (nested in tuples, lists, dicts) as the NumPy or CuPy arrays
    behind them (the same memory); other values are returned as they are."""
    return _send_nested(array, _from_chx_one)


def _from_chx_one(array: Any) -> Any:
    if is_chainerx_array(array):
        return backing(array)
    return array
