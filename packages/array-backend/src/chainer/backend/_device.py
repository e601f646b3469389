"""Device objects: where arrays live and how they are moved there."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.backends import cuda


def _send_nested(arrays: Any, convert: Any) -> Any:
    if isinstance(arrays, tuple):
        return tuple(_send_nested(a, convert) for a in arrays)
    if isinstance(arrays, list):
        return [_send_nested(a, convert) for a in arrays]
    if isinstance(arrays, dict):
        return {k: _send_nested(v, convert) for k, v in arrays.items()}
    if arrays is None:
        return None
    return convert(arrays)


class Device:
    """A device on which arrays are allocated (abstract base).

    Subclasses define :attr:`xp` (the array module), :attr:`name` (the spec
    string, e.g. ``'@numpy'``) and :meth:`send_array`.
    """

    xp: Any = None
    name: str = ''
    supported_array_types: tuple[type, ...] = ()

    def __enter__(self) -> Device:
        self._ctx = self.create_context()
        self._ctx.__enter__()
        return self

    def __exit__(self, *args: Any) -> None:
        self._ctx.__exit__(*args)

    def create_context(self) -> Any:
        """Return a context manager that makes this device current."""
        return cuda.DummyDevice

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f'<{type(self).__name__} {self.name}>'

    def send_array(self, array: Any) -> Any:
        """Transfer one array to this device."""
        raise NotImplementedError

    def send(self, arrays: Any) -> Any:
        """Transfer an array or a nested tuple/list/dict of arrays to this device.

        Args:
            arrays: an array, a scalar, None, or tuples/lists/dicts of them.

        Returns:
            The same structure with every array on this device.
        """
        return _send_nested(arrays, self.send_array)

    def use(self) -> None:
        """Make this device the current one (no-op on the CPU)."""

    def is_array_supported(self, array: Any) -> bool:
        """Whether ``array`` is an array that lives on this device."""
        return isinstance(array, self.supported_array_types)


class CpuDevice(Device):
    """The CPU, with NumPy arrays. Its spec string is ``'@numpy'``."""

    xp = numpy
    name = '@numpy'
    supported_array_types = (numpy.ndarray,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CpuDevice)

    def __hash__(self) -> int:
        return hash(CpuDevice)

    def __repr__(self) -> str:
        return '<CpuDevice (numpy)>'

    @staticmethod
    def from_array(array: Any) -> CpuDevice | None:
        """Return the CpuDevice if ``array`` is a NumPy ndarray, else None."""
        if isinstance(array, numpy.ndarray):
            return _CPU
        return None

    def send_array(self, array: Any) -> Any:
        """Copy ``array`` to host memory (NumPy arrays are returned as they are)."""
        if isinstance(array, numpy.ndarray):
            return array
        if cuda.cupy is not None and isinstance(array, cuda.cupy.ndarray):
            return array.get()
        if isinstance(array, (numpy.generic, int, float, bool, complex)):
            return numpy.asarray(array)
        if hasattr(array, '__dlpack__'):
            return numpy.from_dlpack(array)
        from chainer.backend import _chainerx

        if _chainerx.is_chainerx_array(array):
            # a native array's NumPy data is shared; a cuda one's is copied to the host
            return self.send_array(_chainerx.backing(array))
        raise TypeError(f'cannot send {type(array).__name__} to the CPU: an array is required')


class GpuDevice(Device):
    """A CUDA device with CuPy arrays. Its spec string is ``'@cupy:N'``.

    Args:
        device: a ``cupy.cuda.Device`` or a device id.

    Raises:
        RuntimeError: when CuPy or a CUDA device is not available.
    """

    supported_array_types = (cuda.ndarray,)

    def __init__(self, device: Any) -> None:
        cuda.check_cuda_available()
        if isinstance(device, int):
            device = cuda.Device(device)
        self.device = device

    @property
    def xp(self) -> Any:
        """The ``cupy`` module."""
        return cuda.cupy

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # Pickled and deep-copied by id (a copied link stays on the same GPU); the
        # module and the cupy.cuda.Device object are not picklable.
        return GpuDevice, (self.device.id,)

    @staticmethod
    def from_device_id(device_id: int) -> GpuDevice:
        """Return the GpuDevice of CUDA device ``device_id``."""
        if not isinstance(device_id, int) or device_id < 0:
            raise ValueError(f'invalid CUDA device id: {device_id!r}')
        return GpuDevice(device_id)

    @staticmethod
    def from_array(array: Any) -> GpuDevice | None:
        """Return the GpuDevice holding a CuPy ``array``, else None."""
        if cuda.cupy is not None and isinstance(array, cuda.cupy.ndarray):
            return GpuDevice(array.device)
        return None

    @property
    def name(self) -> str:  # type: ignore[override]
        return f'@cupy:{self.device.id}'

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GpuDevice) and other.device.id == self.device.id

    def __hash__(self) -> int:
        return hash((GpuDevice, self.device.id))

    def __repr__(self) -> str:
        return f'<GpuDevice (cupy):{self.device.id}>'

    def create_context(self) -> Any:
        return cuda.Device(self.device.id)

    def send_array(self, array: Any) -> Any:
        """Copy ``array`` onto this GPU (zero-copy for DLPack producers on it)."""
        cupy = cuda.cupy
        if isinstance(array, cupy.ndarray) and array.device.id == self.device.id:
            return array
        from chainer.backend import _chainerx

        if _chainerx.is_chainerx_array(array):
            # a cuda array on this GPU is viewed; any other is copied
            return self.send_array(_chainerx.backing(array))
        with self.device:
            if isinstance(array, cupy.ndarray):
                return array.copy()
            if not isinstance(array, (numpy.ndarray, numpy.generic)) and hasattr(
                    array, '__dlpack__'):
                return cupy.from_dlpack(array)
            return cupy.asarray(array)

    def use(self) -> None:
        """Make this GPU the current CUDA device."""
        self.device.use()

    def synchronize(self) -> None:
        """Wait for every kernel on this GPU to finish."""
        self.device.synchronize()


def _not_provided(what: str) -> RuntimeError:
    return RuntimeError(
        f'{what} is not available: iDeep is not provided by this project; '
        "use '@numpy' for the CPU, '@cupy:N' for CUDA device N or 'native:0' for ChainerX")


class Intel64Device(Device):
    """The iDeep (Intel64) device. iDeep is not provided: constructing one raises RuntimeError.

    :meth:`from_array` returns None for every array, as Chainer v7 does on a machine
    without iDeep.
    """

    xp = numpy
    name = '@intel64'

    def __init__(self) -> None:
        raise _not_provided('iDeep (@intel64)')

    @staticmethod
    def from_array(array: Any) -> Intel64Device | None:
        """Return None: no array is an iDeep array in this project."""
        return None


_CPU = CpuDevice()
