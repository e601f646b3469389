"""Contexts, backends and devices.

A :class:`Context` owns the backends (``native``: NumPy on the host; ``cuda``: CuPy, where
CuPy and a GPU exist) and the backprop ids. Each backend gives one :class:`Device` object
per index, so devices compare by identity. Arrays on ``native:0`` and ``native:1`` both
live in host memory; ChainerX keeps them apart all the same (operations need one device).
"""

from __future__ import annotations

import threading
import types
from typing import Any

import numpy

from chainerx._errors import BackendError, ChainerxError, ContextError, DeviceError

NATIVE_DEVICE_COUNT = 4


class Device:
    """One device of a backend: ``native:N`` (host memory) or ``cuda:N`` (GPU N)."""

    __slots__ = ('_backend', '_index', '_name', 'xp')

    def __init__(self, backend: Backend, index: int) -> None:
        self._backend = backend
        self._index = index
        self._name = f'{backend.name}:{index}'
        self.xp: types.ModuleType = backend.xp

    @property
    def backend(self) -> Backend:
        """The backend this device belongs to."""
        return self._backend

    @property
    def context(self) -> Context:
        """The context of this device's backend."""
        return self._backend.context

    @property
    def index(self) -> int:
        """The device's index within its backend."""
        return self._index

    @property
    def name(self) -> str:
        """``'<backend>:<index>'``, e.g. ``'native:0'``."""
        return self._name

    def synchronize(self) -> None:
        """Wait until every operation queued on this device is done."""
        if self._backend.name == 'cuda':
            with self.xp.cuda.Device(self._index):
                self.xp.cuda.Device(self._index).synchronize()

    def _scope(self) -> Any:
        """A context manager making this the current CUDA device (nothing on native)."""
        if self._backend.name == 'cuda':
            return self.xp.cuda.Device(self._index)
        return _NULL_SCOPE

    def __repr__(self) -> str:
        return f'<Device {self._name}>'

    def __reduce__(self) -> tuple[Any, ...]:
        return (get_device, (self._name,))

    def __deepcopy__(self, memo: dict[int, Any]) -> Device:
        return self

    def __copy__(self) -> Device:
        return self


class _NullScope:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NULL_SCOPE = _NullScope()


class Backend:
    """A family of devices of one kind in a context (``native`` or ``cuda``)."""

    def __init__(self, context: Context, name: str, xp: types.ModuleType) -> None:
        self._context = context
        self._name = name
        self.xp = xp
        self._devices: dict[int, Device] = {}

    @property
    def name(self) -> str:
        """``'native'`` or ``'cuda'``."""
        return self._name

    @property
    def context(self) -> Context:
        """The context owning this backend."""
        return self._context

    def get_device_count(self) -> int:
        """How many devices this backend has."""
        if self._name == 'native':
            return NATIVE_DEVICE_COUNT
        return int(self.xp.cuda.runtime.getDeviceCount())

    def get_device(self, index: int) -> Device:
        """The device of *index* (the same object on every call)."""
        device = self._devices.get(index)
        if device is None:
            if not isinstance(index, int) or not 0 <= index < self.get_device_count():
                raise DeviceError(
                    f'device index {index!r} is out of range for backend {self._name} '
                    f'({self.get_device_count()} devices)')
            device = self._devices[index] = Device(self, index)
        return device

    def __repr__(self) -> str:
        return f'<Backend {self._name}>'


def _cupy() -> types.ModuleType | None:
    try:
        import cupy  # layout: optional
    except ImportError:
        return None
    try:
        if cupy.cuda.runtime.getDeviceCount() <= 0:
            return None
    except Exception:  # no driver or no GPU
        return None
    return cupy


class Context:
    """Owns backends, devices and backprop ids (ChainerX's ``Context``)."""

    def __init__(self) -> None:
        self._backends: dict[str, Backend] = {}
        self._lock = threading.Lock()
        self._default_backprop_id = BackpropId(self, '<default>')

    def get_backend(self, backend_name: str) -> Backend:
        """The backend named *backend_name* (``native`` or ``cuda``)."""
        backend = self._backends.get(backend_name)
        if backend is not None:
            return backend
        with self._lock:
            if backend_name == 'native':
                xp = numpy
            elif backend_name == 'cuda':
                cupy = _cupy()
                if cupy is None:
                    raise BackendError('the cuda backend needs CuPy and a CUDA device')
                xp = cupy
            else:
                raise BackendError(f'unknown backend: {backend_name!r}')
            backend = self._backends.setdefault(backend_name, Backend(self, backend_name, xp))
        return backend

    def get_device(self, device_name: str, index: int | None = None) -> Device:
        """The device ``'backend:index'``, or of *device_name* (a backend) and *index*."""
        if index is None:
            backend_name, sep, index_text = device_name.partition(':')
            if sep:
                try:
                    index = int(index_text)
                except ValueError as e:
                    raise DeviceError(f'invalid device name: {device_name!r}') from e
            else:
                index = 0
        else:
            backend_name = device_name
        return self.get_backend(backend_name).get_device(index)

    def make_backprop_id(self, backprop_name: str) -> BackpropId:
        """A new backprop id (a graph) named *backprop_name*."""
        return BackpropId(self, backprop_name)

    def release_backprop_id(self, backprop_id: BackpropId) -> None:
        """Invalidate *backprop_id*: its graphs can no longer be used."""
        self._check_valid_backprop_id(backprop_id)
        backprop_id._released = True

    def _check_valid_backprop_id(self, backprop_id: BackpropId) -> None:
        if backprop_id.context is not self:
            raise ContextError('the backprop id belongs to another context')
        if backprop_id._released:
            raise ChainerxError(f'backprop id {backprop_id.name!r} has been released')

    @property
    def default_backprop_id(self) -> BackpropId:
        """The backprop id used where none is given."""
        return self._default_backprop_id

    def __repr__(self) -> str:
        return f'<Context {id(self):#x}>'


class BackpropId:
    """Names one computational graph of a context (``backprop_scope`` makes one)."""

    __slots__ = ('__weakref__', '_released', 'context', 'name')

    def __init__(self, context: Context, name: str) -> None:
        self.context = context
        self.name = name
        self._released = False

    def __repr__(self) -> str:
        return f'<BackpropId {self.name!r}>'


class _State(threading.local):
    def __init__(self) -> None:
        self.context: Context | None = None
        self.device: Device | None = None


_state = _State()
_global_context: list[Context | None] = [None]


def get_global_default_context() -> Context:
    """The context used by threads that set none."""
    context = _global_context[0]
    if context is None:
        raise ContextError('the global default context is not set')
    return context


def set_global_default_context(context: Context | None) -> None:
    """Set the global default context (None unsets it)."""
    _global_context[0] = context


def get_default_context() -> Context:
    """This thread's default context, or else the global one."""
    context = _state.context
    if context is None:
        context = _global_context[0]
        if context is None:
            raise ContextError('no default context is set')
    return context


def set_default_context(context: Context | None) -> None:
    """Set this thread's default context (None falls back to the global one)."""
    _state.context = context


class ContextScope:
    """Within it, a context is this thread's default context."""

    def __init__(self, context: Context) -> None:
        self._context = context
        self._saved: list[tuple[Context | None, Device | None]] = []

    def __enter__(self) -> ContextScope:
        self._saved.append((_state.context, _state.device))
        _state.context = self._context
        _state.device = None
        return self

    def __exit__(self, *exc: object) -> None:
        _state.context, _state.device = self._saved.pop()


def context_scope(context: Context) -> ContextScope:
    """A scope making *context* the default context."""
    return ContextScope(context)


def get_backend(backend_name: str) -> Backend:
    """The backend *backend_name* of the default context."""
    return get_default_context().get_backend(backend_name)


def get_device(*device: Any) -> Device:
    """A device: none given is the default device; a :class:`Device`, a name
    (``'native:0'``, ``'cuda'``) or a backend name and an index."""
    if not device or (len(device) == 1 and device[0] is None):
        return get_default_device()
    if len(device) == 1:
        spec = device[0]
        if isinstance(spec, Device):
            return spec
        if isinstance(spec, str):
            return get_default_context().get_device(spec)
        raise TypeError(f'invalid device specifier: {spec!r}')
    if len(device) == 2:
        name, index = device
        if not isinstance(name, str) or not isinstance(index, int):
            raise TypeError(f'invalid device specifier: {device!r}')
        return get_default_context().get_device(name, index)
    raise TypeError(f'get_device takes at most 2 arguments ({len(device)} given)')


def get_default_device() -> Device:
    """This thread's default device (``native:0`` of the default context if unset)."""
    device = _state.device
    context = get_default_context()
    if device is None or device.context is not context:
        device = context.get_device('native', 0)
    return device


def set_default_device(device: Device | str) -> None:
    """Set this thread's default device (a device or its name)."""
    _state.device = get_device(device)


class DeviceScope:
    """Within it, a device is this thread's default device."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self._saved: list[Device | None] = []

    def __enter__(self) -> DeviceScope:
        self._saved.append(_state.device)
        _state.device = self.device
        return self

    def __exit__(self, *exc: object) -> None:
        _state.device = self._saved.pop()


def using_device(*device: Any) -> DeviceScope:
    """A scope making a device (a :class:`Device`, a name, or a backend name and an
    index) the default device."""
    return DeviceScope(get_device(*device))


def resolve(device: Any) -> Device:
    """The device an optional ``device=`` argument names (None: the default device)."""
    if device is None:
        return get_default_device()
    if isinstance(device, Device):
        return device
    return get_device(device)


set_global_default_context(Context())
