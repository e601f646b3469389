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

import warnings
from typing import Any

import numpy

from chainer.backends import cuda

_OP_N, _OP_T, _HOST_POINTERS = 0, 1, 0
_SCALARS = {'f': (numpy.ones(1, 'f'), numpy.zeros(1, 'f')),
            'd': (numpy.ones(1, 'd'), numpy.zeros(1, 'd'))}
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
    handle = cupy.cuda.device.get_cublas_handle()
    try:
        lib.setStream(handle, cupy.cuda.get_current_stream().ptr)
        lib.setPointerMode(handle, _HOST_POINTERS)
        one, zero = _SCALARS[char]
        gemm(handle, op_b[0], op_a[0], n, m, k, one.ctypes.data, b.data.ptr, op_b[1],
             a.data.ptr, op_a[1], zero.ctypes.data, out.data.ptr, n)
    except (AttributeError, TypeError) as e:  # bindings of another CuPy release
        _gemm.clear()  # type: ignore[union-attr]
        warnings.warn(f'direct cuBLAS calls are unavailable ({e}); using cupy.dot',
                      RuntimeWarning, stacklevel=2)
        return a.dot(b)
    return out
