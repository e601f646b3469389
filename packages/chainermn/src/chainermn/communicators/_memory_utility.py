"""Moving arrays between devices and MPI buffers.

MPI here is not assumed to be CUDA-aware: a CuPy array goes through host memory, and
what is received is put back on the current CUDA device.
"""

from __future__ import annotations

from typing import Any

import numpy


def is_gpu_array(a: Any) -> bool:
    """Whether ``a`` is a CuPy array."""
    return type(a).__module__.startswith('cupy')


def to_host(a: Any) -> numpy.ndarray:
    """``a`` as a C-contiguous NumPy array (no copy when it already is one)."""
    if is_gpu_array(a):
        a = a.get()
    # (numpy.ascontiguousarray would turn a 0-dim array into a 1-dim one)
    return a if isinstance(a, numpy.ndarray) and a.flags.c_contiguous \
        else numpy.array(a, order='C')


def to_device(a: numpy.ndarray, gpu: bool) -> Any:
    """``a`` itself, or a CuPy copy of it on the current device when ``gpu``."""
    if not gpu:
        return a
    import cupy  # layout: optional

    return cupy.asarray(a)


def as_bytes(a: numpy.ndarray) -> numpy.ndarray:
    """A flat ``uint8`` view of the C-contiguous array ``a`` (of any shape, 0-dim too)."""
    return a.reshape(-1).view(numpy.uint8)


def array_to_buffer_object(array: Any, mpi_dtype: Any = None) -> list[Any]:
    """An mpi4py buffer specification ``[buffer, MPI datatype]`` for ``array``.

    A NumPy array must be C-contiguous and is passed as is; a CuPy array is passed by
    its device memory (for a CUDA-aware MPI). Without ``mpi_dtype`` the buffer is sent
    as bytes.

    Raises:
        ValueError: when a NumPy ``array`` is not C-contiguous.
    """
    from mpi4py import MPI

    if mpi_dtype is None:
        mpi_dtype = MPI.BYTE
    if is_gpu_array(array):
        return [array.reshape(-1).view(numpy.uint8) if mpi_dtype is MPI.BYTE else array,
                mpi_dtype]
    if not array.flags.c_contiguous:
        raise ValueError('array_to_buffer_object needs a C-contiguous array')
    return [as_bytes(array) if mpi_dtype is MPI.BYTE else array, mpi_dtype]


def header(a: Any) -> tuple[tuple[int, ...], str]:
    """The ``(shape, dtype string)`` the receiver of ``a`` allocates its buffer from."""
    return tuple(a.shape), a.dtype.str


def empty(head: tuple[tuple[int, ...], str]) -> numpy.ndarray:
    """An uninitialized host array for a :func:`header`."""
    return numpy.empty(head[0], numpy.dtype(head[1]))


def nbytes(head: tuple[tuple[int, ...], str]) -> int:
    """The size in bytes of an array described by a :func:`header`."""
    return int(numpy.prod(head[0], dtype=numpy.int64)) * numpy.dtype(head[1]).itemsize


def concat_bytes(arrays: list[numpy.ndarray]) -> numpy.ndarray:
    """The bytes of host ``arrays`` one after the other, in one ``uint8`` buffer."""
    if len(arrays) == 1:
        return as_bytes(arrays[0])
    if not arrays:
        return numpy.empty(0, numpy.uint8)
    return numpy.concatenate([as_bytes(a) for a in arrays])


def split_bytes(buf: numpy.ndarray, heads: list[Any]) -> list[numpy.ndarray]:
    """Cut a ``uint8`` buffer into the arrays that ``heads`` describe (views)."""
    out = []
    offset = 0
    for head in heads:
        n = nbytes(head)
        dtype = numpy.dtype(head[1])
        out.append(buf[offset:offset + n].view(dtype).reshape(head[0]))
        offset += n
    return out
