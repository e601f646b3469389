"""CUDA support through CuPy (``chainer.backends.cuda``).

When CuPy is not installed (or no CUDA device is usable), :data:`available` is
False, and every function that needs the GPU raises a ``RuntimeError`` naming the
extra to install. cuDNN is never required: :data:`cudnn_enabled` is True where
NVIDIA's cudnn-frontend is installed (the ``cudnn`` extra), which convolutions then use.
"""

from __future__ import annotations

import functools
import importlib.util
import threading
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

import numpy

if TYPE_CHECKING:
    from chainer.backend import Arrays
    from chainer.types import CudaDeviceSpec, DTypeSpec

_INSTALL_HINT = (
    'CUDA environment is not available: install CuPy for your CUDA version, e.g. '
    '"pip install chainer[cuda12]" (cupy-cuda12x) or "pip install chainer[cuda13]" '
    '(cupy-cuda13x), and make sure a CUDA device is visible.'
)

try:
    import cupy
    import cupy.cuda

    try:
        available: bool = cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # no driver / no device
        available = False
    ndarray: Any = cupy.ndarray
    Device: Any = cupy.cuda.Device
    Event: Any = cupy.cuda.Event
    Stream: Any = cupy.cuda.Stream
    # cuDNN through NVIDIA's cudnn-frontend (import name ``cudnn``; CuPy 14 has no
    # cuDNN module of its own): found here, loaded on first use by chainer._cudnn
    cudnn_enabled: bool = available and importlib.util.find_spec('cudnn') is not None
except ImportError:
    cupy = None
    available = False
    cudnn_enabled = False

    class ndarray:  # type: ignore[no-redef]
        """Placeholder type: no array is ever an instance of it without CuPy."""

    class Device:  # type: ignore[no-redef]
        """Stand-in for ``cupy.cuda.Device`` that reports CUDA as unavailable."""

        def __init__(self, device: int | None = None) -> None:
            check_cuda_available()

    class Event:  # type: ignore[no-redef]
        """Stand-in for ``cupy.cuda.Event`` (unavailable without CuPy)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            check_cuda_available()

    class Stream:  # type: ignore[no-redef]
        """Stand-in for ``cupy.cuda.Stream`` (unavailable without CuPy)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            check_cuda_available()


class DummyDeviceType:
    """A device context that does nothing; its ``id`` is -1 (the CPU)."""

    id = -1

    def __enter__(self) -> DummyDeviceType:
        return self

    def __exit__(self, *args: Any) -> None:
        pass

    def use(self) -> None:
        """Do nothing (the CPU needs no switch)."""

    def synchronize(self) -> None:
        """Do nothing (the CPU is synchronous)."""

    def __int__(self) -> int:
        return -1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DummyDeviceType)

    def __hash__(self) -> int:
        return hash(DummyDeviceType)


DummyDevice = DummyDeviceType()

_max_workspace_size = 8 * 1024 * 1024


def check_cuda_available() -> None:
    """Raise ``RuntimeError`` with install instructions when CUDA is unusable."""
    if not available:
        raise RuntimeError(_INSTALL_HINT)


def get_device_from_id(device_id: int | None) -> Any:
    """Return the ``cupy.cuda.Device`` of ``device_id``, or DummyDevice for None."""
    if device_id is None:
        return DummyDevice
    check_cuda_available()
    return Device(device_id)


def get_device_from_array(*arrays: Any) -> Any:
    """Return the CUDA device holding the first CuPy array, or DummyDevice."""
    for array in arrays:
        if cupy is not None and isinstance(array, cupy.ndarray):
            return array.device
    return DummyDevice


def get_device(*args: Any) -> Any:
    """Deprecated Chainer v1 style device getter: an int id or an array."""
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool):
            return DummyDevice if arg < 0 else get_device_from_id(arg)
        if cupy is not None and isinstance(arg, cupy.ndarray):
            return arg.device
    return DummyDevice


def get_array_module(*args: Any) -> Any:
    """Return ``cupy`` if any argument is a CuPy array (or Variable of one), else numpy."""
    if cupy is not None:
        for arg in args:
            arr = getattr(arg, 'array', arg) if not isinstance(arg, numpy.ndarray) else arg
            if isinstance(arr, cupy.ndarray):
                return cupy
    return numpy


def to_gpu(array: Arrays, device: CudaDeviceSpec | None = None, stream: None = None) -> Any:
    """Copy an array (or nested list/tuple/dict of arrays) to a GPU.

    Args:
        array: NumPy/CuPy array, scalar, or a nested list/tuple/dict of them.
        device: device id, ``cupy.cuda.Device`` or None (the current device).
        stream: unsupported legacy argument; must be None.

    Raises:
        RuntimeError: when CUDA is not available.
    """
    check_cuda_available()
    if stream is not None:
        raise ValueError('the stream argument of to_gpu is not supported')
    if isinstance(array, (list, tuple)):
        return type(array)(to_gpu(a, device) for a in array)
    if isinstance(array, dict):
        return {k: to_gpu(v, device) for k, v in array.items()}
    if array is None:
        return None
    if device is None:
        dev = cupy.cuda.Device()
    elif isinstance(device, (int, numpy.integer)):
        dev = Device(int(device))
    else:
        dev = device
    with dev:
        return cupy.asarray(array)


def to_cpu(array: Arrays, stream: object = None) -> Any:
    """Copy an array (or nested list/tuple/dict of arrays) to host memory."""
    if isinstance(array, (list, tuple)):
        return type(array)(to_cpu(a) for a in array)
    if isinstance(array, dict):
        return {k: to_cpu(v) for k, v in array.items()}
    if array is None:
        return None
    if cupy is not None and isinstance(array, cupy.ndarray):
        return array.get()
    if isinstance(array, numpy.ndarray):
        return array
    if isinstance(array, (numpy.generic, int, float, bool, complex)):
        return numpy.asarray(array)
    from chainer.backend import CpuDevice, _chainerx

    if _chainerx.is_chainerx_array(array):
        return CpuDevice().send_array(array)  # a native one's NumPy array is shared
    raise TypeError(f'the array sent to the CPU must be an array or None, not {type(array)}')


def copy(array: cupy.ndarray, out: cupy.ndarray | None = None, out_device: int | None = None,
         stream: object = None) -> Any:
    """Copy a CuPy array, optionally into ``out`` or onto ``out_device``."""
    check_cuda_available()
    if out is None:
        dev = get_device_from_id(out_device) if out_device is not None else array.device
        with dev:
            return cupy.array(array, copy=True)
    out[...] = array
    return out


_memo_lock = threading.Lock()
_memos: list[Any] = []


def memoize(for_each_device: bool = False
            ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Cache a function's results by its arguments (and the current device)."""

    def decorator(f: Callable[..., Any]) -> Callable[..., Any]:
        cache: dict[Hashable, Any] = {}

        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key: Hashable = (args, tuple(sorted(kwargs.items())))
            if for_each_device and cupy is not None and available:
                key = (cupy.cuda.runtime.getDevice(), key)
            try:
                return cache[key]
            except KeyError:
                value = cache[key] = f(*args, **kwargs)
                return value

        with _memo_lock:
            _memos.append(cache)
        return wrapper

    return decorator


def clear_memo() -> None:
    """Forget every value cached by :func:`memoize`."""
    with _memo_lock:
        for cache in _memos:
            cache.clear()


@memoize(for_each_device=True)
def elementwise(in_params: str, out_params: str, operation: str, name: str, **kwargs: Any) -> Any:
    """Build (and cache) a ``cupy.ElementwiseKernel``."""
    check_cuda_available()
    return cupy.ElementwiseKernel(in_params, out_params, operation, name, **kwargs)


@memoize(for_each_device=True)
def reduce(in_params: str, out_params: str, map_expr: str, reduce_expr: str,
           post_map_expr: str, identity: str | None, name: str, **kwargs: Any) -> Any:
    """Build (and cache) a ``cupy.ReductionKernel``."""
    check_cuda_available()
    return cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                                identity, name, **kwargs)


@memoize(for_each_device=True)
def raw(code: str, name: str, *args: Any, **kwargs: Any) -> Any:
    """Build (and cache) a ``cupy.RawKernel``."""
    check_cuda_available()
    return cupy.RawKernel(code, name, *args, **kwargs)


def fuse(*args: Any, **kwargs: Any) -> Any:
    """``cupy.fuse`` when CuPy is present; otherwise the function runs unfused."""
    if cupy is not None:
        return cupy.fuse(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def get_max_workspace_size() -> int:
    """Return the cuDNN workspace size limit in bytes (kept for compatibility)."""
    return _max_workspace_size


def set_max_workspace_size(size: int) -> None:
    """Set the cuDNN workspace size limit in bytes (kept for compatibility)."""
    global _max_workspace_size
    _max_workspace_size = int(size)


def should_use_cudnn(level: str, lowest_version: int = 0) -> bool:
    """Whether to use cuDNN at ``level`` ('==always' or '>=auto').

    Never true where CuPy has no cuDNN; otherwise follows ``config.use_cudnn``.
    """
    if level not in ('==always', '>=auto'):
        raise ValueError(f'invalid cuDNN level {level!r}: use "==always" or ">=auto"')
    if not cudnn_enabled:
        return False
    try:
        from chainer import config  # layout: optional[config]
    except ImportError:
        return level == '>=auto'
    mode = getattr(config, 'use_cudnn', 'auto')
    if mode == 'always':
        return True
    return mode == 'auto' and level == '>=auto'


def should_use_cudnn_tensor_core(dtype: DTypeSpec) -> bool:
    """Whether cuDNN may use tensor cores for ``dtype`` (float16 only)."""
    return cudnn_enabled and numpy.dtype(dtype) == numpy.float16


def get_cudnn_dropout_states() -> Any:
    """cuDNN dropout states are not provided (this project never needs cuDNN)."""
    raise RuntimeError('cuDNN dropout states are not provided: GPU dropout runs without cuDNN')


def get_cudnn_dropout_states_core(thread_id: int) -> Any:
    """See :func:`get_cudnn_dropout_states`."""
    return get_cudnn_dropout_states()


def __getattr__(name: str) -> Any:
    # v7 exposes these here too; resolved lazily because chainer.backend imports this
    # module, and the configuration belongs to chainer-autograd-core
    if name == 'GpuDevice':
        from chainer.backend._device import GpuDevice
        return GpuDevice
    if name == 'config':
        try:
            from chainer.configuration import config  # layout: optional[config]
        except ImportError:
            raise ModuleNotFoundError(
                'chainer.backends.cuda.config is the chainer configuration, provided by the '
                'chainer-autograd-core package: pip install chainer-autograd-core') from None
        return config
    raise AttributeError(f"module 'chainer.backends.cuda' has no attribute {name!r}")
