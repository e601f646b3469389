"""Matrix products of CuPy matrices as one cuBLAS GEMM call each.

``cupy.ndarray.dot`` costs tens of microseconds on the host per call (its general
tensordot path); the small products of a linear layer or an LSTM step then cost more on
the host than on the GPU. :func:`dot` calls cuBLAS's GEMM directly for float32/float64
matrices that are C- or F-contiguous (a transposed weight is an F-contiguous view): the
row-major product ``a b`` is computed as the column-major ``b^T a^T``, each operand read
in place with the transposition its layout needs. Anything else is ``a.dot(b)``.
Products are exact float32/float64 arithmetic (cuBLAS's default math, no TF32), as
CuPy's.
"""

from __future__ import annotations

import ctypes
import warnings
from typing import Any

import numpy

from chainer.backends import cuda

_OP_N, _OP_T, _HOST_POINTERS = 0, 1, 0
_SCALAR_ARRAYS = {c: (numpy.ones(1, c), numpy.zeros(1, c)) for c in 'fd'}
#: the host addresses of GEMM's alpha (1) and beta (0) by dtype (``.ctypes`` costs a
#: microsecond per access)
_SCALARS = {c: (one.ctypes.data, zero.ctypes.data) for c, (one, zero) in _SCALAR_ARRAYS.items()}
_gemm: dict[str, Any] | None = None  # by dtype char; {} where the bindings are missing


def _bindings() -> dict[str, Any]:
    global _gemm
    if _gemm is None:
        try:
            from cupy_backends.cuda.libs import cublas
            _gemm = {'f': cublas.sgemm, 'd': cublas.dgemm, 'lib': cublas}
        except ImportError:  # pragma: no cover (CuPy without its cuBLAS module)
            _gemm = {}
    return _gemm


_handles: dict[int, int] = {}


def _handle(device: int) -> int:
    """CuPy's cuBLAS handle of ``device``, asked for once: CuPy's ``get_cublas_handle``
    sets the handle's stream, which CuPy refuses under CUDA graph capture."""
    handle = _handles.get(device)
    if handle is None:
        handle = _handles[device] = cuda.cupy.cuda.device.get_cublas_handle()
    return handle


_capture: dict[str, Any] = {}  # while a CUDA graph capture runs: 'f'/'d' -> cuBLAS GEMM
_GEMM_ARGS = (ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
              ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
              ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


def _load_cublas() -> ctypes.CDLL:
    """The cuBLAS library CuPy loaded (by its soname, else by its path in the process)."""
    major = cuda.cupy.cuda.runtime.runtimeGetVersion() // 1000
    try:
        return ctypes.CDLL(f'libcublas.so.{major}')
    except OSError:
        with open('/proc/self/maps') as maps:
            for line in maps:
                path = line.split()[-1]
                if '/libcublas.so' in path:
                    return ctypes.CDLL(path)
    raise RuntimeError('the cuBLAS library CuPy uses was not found')


def set_stream_for_capture(stream: Any) -> None:
    """Point the current device's cuBLAS handle at ``stream`` before a CUDA graph capture
    begins on it, and call cuBLAS directly until :func:`end_capture` (CuPy's bindings set
    the handle's stream on every call, which CuPy refuses while a capture runs).

    Raises:
        RuntimeError: where cuBLAS cannot be called directly (the capture is then not to
            be made).
    """
    lib = _bindings().get('lib')
    if lib is None:
        raise RuntimeError('CuPy has no cuBLAS bindings')
    handle = _handle(cuda.cupy.cuda.runtime.getDevice())
    lib.setStream(handle, stream.ptr)
    lib.setPointerMode(handle, _HOST_POINTERS)
    cublas = _load_cublas()
    for char, name in (('f', 'cublasSgemm_v2'), ('d', 'cublasDgemm_v2')):
        fn = getattr(cublas, name)
        fn.argtypes = _GEMM_ARGS
        fn.restype = ctypes.c_int
        _capture[char] = fn


def end_capture() -> None:
    """Back to CuPy's cuBLAS bindings after a capture (see :func:`set_stream_for_capture`)."""
    _capture.clear()


def _operand(x: Any, rows: int, cols: int) -> tuple[int, int] | None:
    """cuBLAS's (transposition, leading dimension) reading the row-major ``x`` (rows x
    cols) as its column-major transpose, or None for a layout it cannot read."""
    if x.flags.c_contiguous:
        return _OP_N, cols
    if x.flags.f_contiguous:
        return _OP_T, rows
    return None


def dot(a: Any, b: Any) -> Any:
    """``a.dot(b)`` of CuPy matrices, through one GEMM call where it applies.

    Args:
        a: matrix ``(m, k)``.
        b: matrix ``(k, n)`` of the same dtype and device.

    Returns:
        A new C-contiguous ``(m, n)`` matrix.
    """
    char = a.dtype.char
    gemm = _bindings().get(char)
    if (gemm is None or a.ndim != 2 or b.ndim != 2 or b.dtype.char != char
            or a.size == 0 or b.size == 0 or a.shape[1] != b.shape[0]):
        return a.dot(b)
    m, k = a.shape
    n = b.shape[1]
    op_a = _operand(a, m, k)
    op_b = _operand(b, k, n)
    cupy = cuda.cupy
    device = a.data.device_id
    if (op_a is None or op_b is None or b.data.device_id != device
            or cupy.cuda.runtime.getDevice() != device):
        return a.dot(b)
    out = cupy.empty((m, n), a.dtype)
    lib = _gemm['lib']  # type: ignore[index]
    handle = _handle(device)
    one, zero = _SCALARS[char]
    if _capture:  # under CUDA graph capture: the handle's stream and mode are set
        status = _capture[char](handle, op_b[0], op_a[0], n, m, k, one, b.data.ptr, op_b[1],
                                a.data.ptr, op_a[1], zero, out.data.ptr, n)
        if status:
            raise RuntimeError(f'cuBLAS GEMM failed with status {status}')
        return out
    try:
        lib.setStream(handle, cupy.cuda.get_current_stream().ptr)
        lib.setPointerMode(handle, _HOST_POINTERS)
        gemm(handle, op_b[0], op_a[0], n, m, k, one, b.data.ptr, op_b[1],
             a.data.ptr, op_a[1], zero, out.data.ptr, n)
    except (AttributeError, TypeError) as e:  # bindings of another CuPy release
        _gemm.clear()  # type: ignore[union-attr]
        warnings.warn(f'direct cuBLAS calls are unavailable ({e}); using cupy.dot',
                      RuntimeWarning, stacklevel=2)
        return a.dot(b)
    return out
