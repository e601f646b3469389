"""DeviceResident: objects (links) whose arrays live on one device."""

from __future__ import annotations

from typing import Any

from chainer import backend
from chainer.backends import cuda


class DeviceResident:
    """An object holding arrays on a device, movable with :meth:`to_device`.

    Subclasses override :meth:`device_resident_accept` to pass every array,
    variable and child resident to the visitor.
    """

    _device: Any = None

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
        """The array module (numpy or cupy) of this object's device."""
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
        """Move every array to the CPU; returns self."""
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device: Any = None) -> DeviceResident:
        """Move every array to a GPU (the current one by default); returns self."""
        cuda.check_cuda_available()
        if device is None:
            device = cuda.cupy.cuda.runtime.getDevice()
        if isinstance(device, int):
            device = backend.GpuDevice.from_device_id(device)
        return self.to_device(device)

    def to_intel64(self) -> DeviceResident:
        """iDeep is not provided: raises RuntimeError."""
        raise RuntimeError('iDeep (@intel64) is not provided by this project')

    def to_chx(self) -> DeviceResident:
        """ChainerX is not provided: raises RuntimeError."""
        raise RuntimeError('ChainerX is not provided by this project')

    def from_chx(self) -> DeviceResident:
        """ChainerX is not provided: returns self unchanged."""
        return self

    def to_device(self, device: Any) -> DeviceResident:
        """Move every array to ``device`` (any spec of ``chainer.get_device``)."""
        device = backend.get_device(device)
        self.device_resident_accept(ToDeviceVisitor(device))
        return self


class DeviceResidentsVisitor:
    """Visits device residents, their variables and their plain arrays."""

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        """Visit a resident (before its contents)."""

    def visit_array(self, arr: Any) -> Any:
        """Visit a plain array; returns the array to store in its place."""
        return arr

    def visit_variable(self, param: Any) -> None:
        """Visit a variable or parameter."""


class ToDeviceVisitor(DeviceResidentsVisitor):
    """Moves everything it visits to ``device``."""

    def __init__(self, device: Any) -> None:
        self._device = backend.get_device(device)

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        device_resident._device = self._device

    def visit_array(self, arr: Any) -> Any:
        if arr is None or not hasattr(arr, 'shape'):
            return arr
        return self._device.send(arr)

    def visit_variable(self, param: Any) -> None:
        param.to_device(self._device)
