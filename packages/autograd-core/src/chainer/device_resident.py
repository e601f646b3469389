"""DeviceResident: objects (links) whose arrays live on one device."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.backends import cuda

if TYPE_CHECKING:
    from chainer.types import DeviceSpec, NdArray
    from chainer.variable import Variable

# Methods a subclass may not override (v7 made them final), and the deprecated
# per-backend methods whose overrides v7 still honours from ``to_device``.
_FINAL_METHODS = ('to_device', 'to_chx', 'from_chx')
_LEGACY_METHODS = ('to_cpu', 'to_gpu', 'to_intel64')


def _warn_deprecated(name: str, replacement: str) -> None:
    warnings.warn(f'{name} is deprecated. Please use {replacement} instead.',
                  DeprecationWarning, stacklevel=3)


class DeviceResident:
    """An object holding arrays on a device, movable with :meth:`to_device`.

    Subclasses override :meth:`device_resident_accept` to pass every array,
    variable and child resident to the visitor.
    """

    _device: Any = None
    # The legacy methods (to_cpu, to_gpu, to_intel64) a subclass overrides.
    _overridden_to_methods: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _FINAL_METHODS:
            if name in cls.__dict__:
                raise TypeError(f"{cls.__name__}: method '{name}' is final and cannot be "
                                'overridden')
        overridden = set(cls._overridden_to_methods)
        for name in _LEGACY_METHODS:
            if name in cls.__dict__:
                warnings.warn(f"Overriding method '{name}' is deprecated; "
                              'DeviceResident.to_device() calls it for compatibility.',
                              DeprecationWarning, stacklevel=2)
                overridden.add(name)
        cls._overridden_to_methods = frozenset(overridden)

    def __init__(self) -> None:
        self._device = backend.CpuDevice()

    @property
    def device(self) -> Any:
        """The :class:`~chainer.backend.Device` of this object."""
        if self._device is None:
            self._device = backend.CpuDevice()
        return self._device

    @property
    def xp(self) -> Any:
        """The array module (numpy, cupy or chainerx) of this object's device."""
        return self.device.xp

    @property
    def _device_id(self) -> int | None:
        """The CUDA device id of a GPU-resident object, None on the CPU (v7 code reads it)."""
        device = self.device
        return device.device.id if isinstance(device, backend.GpuDevice) else None

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Let ``visitor`` visit this object (subclasses visit their contents too)."""
        visitor.visit_device_resident(self)

    def to_cpu(self) -> DeviceResident:
        """Move every array to the CPU; returns self (deprecated: ``to_device('@numpy')``)."""
        _warn_deprecated('to_cpu', "to_device('@numpy')")
        self.device_resident_accept(ToDeviceVisitor(backend.CpuDevice(), entry=self))
        return self

    def to_gpu(self, device: DeviceSpec | None = None) -> DeviceResident:
        """Move every array to a GPU (the current one by default); returns self.

        Deprecated: use ``to_device('@cupy:N')``.
        """
        _warn_deprecated('to_gpu', "to_device('@cupy:N')")
        cuda.check_cuda_available()
        if device is None:
            device = cuda.cupy.cuda.runtime.getDevice()
        if isinstance(device, int):
            device = backend.GpuDevice.from_device_id(device)
        self.device_resident_accept(ToDeviceVisitor(backend.get_device(device), entry=self))
        return self

    def to_intel64(self) -> DeviceResident:
        """iDeep is not provided: raises RuntimeError."""
        _warn_deprecated('to_intel64', "to_device('@intel64')")
        raise RuntimeError('iDeep (@intel64) is not provided by this project')

    def to_chx(self) -> DeviceResident:
        """Move every array to the ChainerX device over the current one (``native:0``
        from the CPU, ``cuda:N`` from GPU N), without copying; returns self."""
        device = self.device
        if not isinstance(device, backend.ChainerxDevice):
            self.to_device(backend.ChainerxDevice.from_fallback_device(device))
        return self

    def from_chx(self) -> DeviceResident:
        """Move every array from a ChainerX device to its NumPy/CuPy device, without
        copying; returns self."""
        device = self.device
        if isinstance(device, backend.ChainerxDevice):
            self.to_device(device.fallback_device)
        return self

    def to_device(self, device: DeviceSpec) -> DeviceResident:
        """Move every array to ``device`` (any spec of ``chainer.get_device``)."""
        device = backend.get_device(device)
        self.device_resident_accept(ToDeviceVisitor(device))
        return self


class DeviceResidentsVisitor:
    """Visits device residents, their variables and their plain arrays."""

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        """Visit a resident (before its contents)."""

    def visit_array(self, arr: NdArray) -> Any:
        """Visit a plain array; returns the array to store in its place."""
        return arr

    def visit_variable(self, param: Variable) -> None:
        """Visit a variable or parameter."""


class ToDeviceVisitor(DeviceResidentsVisitor):
    """Moves everything it visits to ``device``.

    A resident whose class overrides the legacy ``to_cpu`` / ``to_gpu`` (v7
    code) gets that method called, as in v7; ``entry`` is the resident whose
    own legacy method started the visit (not called again).
    """

    def __init__(self, device: DeviceSpec, entry: DeviceResident | None = None) -> None:
        self._device = backend.get_device(device)
        self._entry = entry

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        device_resident._device = self._device
        overridden = type(device_resident)._overridden_to_methods
        if overridden and device_resident is not self._entry:
            self._call_legacy(device_resident, overridden)

    def _call_legacy(self, resident: DeviceResident, overridden: frozenset[str]) -> None:
        device = self._device
        if isinstance(device, backend.CpuDevice) and 'to_cpu' in overridden:
            resident.to_cpu()
        elif isinstance(device, backend.GpuDevice) and 'to_gpu' in overridden:
            resident.to_gpu(device.device.id)

    def visit_array(self, arr: NdArray) -> Any:
        if arr is None or not hasattr(arr, 'shape'):
            return arr
        return self._device.send(arr)

    def visit_variable(self, param: Variable) -> None:
        param.to_device(self._device)
