"""Helpers shared by the communicators: node topology, chunked object transfer, dtypes."""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any

import numpy

if TYPE_CHECKING:
    from chainer.types import DTypeSpec

INT_MAX = 2**31 - 1
"""The largest element count one MPI call takes (a C ``int``)."""

DEFAULT_MAX_BUF_LEN = 256 * 1024 * 1024
"""Default chunk size, in bytes, of the pickled-object transfers."""


def init_ranks(mpi_comm: Any) -> list[int]:
    """Find where each process of ``mpi_comm`` runs (collective: every process calls it).

    Processes on the same host (same MPI processor name) form a node; nodes are numbered
    in the order of their lowest rank, and the processes of a node by rank.

    Returns:
        ``[rank, intra_rank, intra_size, inter_rank, inter_size]``.
    """
    from mpi4py import MPI

    hosts = mpi_comm.allgather(MPI.Get_processor_name())
    nodes = list(dict.fromkeys(hosts))
    mine = hosts[mpi_comm.rank]
    local = [r for r, host in enumerate(hosts) if host == mine]
    return [mpi_comm.rank, local.index(mpi_comm.rank), len(local), nodes.index(mine),
            len(nodes)]


def _check_buf_len(max_buf_len: int) -> int:
    if not isinstance(max_buf_len, (int, numpy.integer)) or not 0 < max_buf_len < INT_MAX:
        raise ValueError(f'max_buf_len must be an integer in (0, {INT_MAX}), '
                         f'got {max_buf_len!r}')
    return int(max_buf_len)


def _chunks(nbytes: int, max_buf_len: int) -> list[tuple[int, int]]:
    return [(b, min(b + max_buf_len, nbytes)) for b in range(0, nbytes, max_buf_len)]


def chunked_bcast_obj(obj: Any, mpi_comm: Any, max_buf_len: int = DEFAULT_MAX_BUF_LEN,
                      root: int = 0) -> Any:
    """Broadcast a picklable object of any size from ``root``, in chunks of bytes.

    Args:
        obj: the object (read on ``root`` only).
        mpi_comm: an mpi4py communicator.
        max_buf_len: the largest chunk in bytes, in ``(0, INT_MAX)``.
        root: the rank that holds ``obj``.

    Returns:
        ``obj`` on every process.

    Raises:
        ValueError: for a bad ``max_buf_len``.
    """
    from mpi4py import MPI

    max_buf_len = _check_buf_len(max_buf_len)
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL) if mpi_comm.rank == root \
        else None
    nbytes = mpi_comm.bcast(len(data) if data is not None else None, root=root)
    buf = numpy.frombuffer(data, numpy.uint8) if data is not None \
        else numpy.empty(nbytes, numpy.uint8)
    for b, e in _chunks(nbytes, max_buf_len):
        mpi_comm.Bcast([buf[b:e], MPI.BYTE], root=root)
    return obj if mpi_comm.rank == root else pickle.loads(buf.tobytes())


def chunked_send_obj(obj: Any, mpi_comm: Any, dest: int, tag: int = 0,
                     max_buf_len: int = DEFAULT_MAX_BUF_LEN) -> None:
    """Send a picklable object of any size to ``dest`` (see :func:`chunked_recv_obj`)."""
    from mpi4py import MPI

    max_buf_len = _check_buf_len(max_buf_len)
    data = numpy.frombuffer(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), numpy.uint8)
    mpi_comm.send((data.size, max_buf_len), dest=dest, tag=tag)
    for b, e in _chunks(data.size, max_buf_len):
        mpi_comm.Send([data[b:e], MPI.BYTE], dest=dest, tag=tag)


def chunked_recv_obj(mpi_comm: Any, source: int, tag: int = 0) -> Any:
    """Receive an object sent by :func:`chunked_send_obj`."""
    from mpi4py import MPI

    nbytes, max_buf_len = mpi_comm.recv(source=source, tag=tag)
    buf = numpy.empty(nbytes, numpy.uint8)
    for b, e in _chunks(nbytes, max_buf_len):
        mpi_comm.Recv([buf[b:e], MPI.BYTE], source=source, tag=tag)
    return pickle.loads(buf.tobytes())


def reduction_dtype(dtype: DTypeSpec) -> numpy.dtype:
    """The dtype MPI sums an array of ``dtype`` in (float16 goes through float32).

    Raises:
        TypeError: for a dtype MPI cannot sum (not a number).
    """
    dtype = numpy.dtype(dtype)
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    if dtype.kind not in 'biufc':
        raise TypeError(f'cannot sum arrays of dtype {dtype} over MPI')
    return dtype


def _get_nccl_type_id(dtype: DTypeSpec) -> int:
    """The NCCL data type constant of a float ``dtype``.

    Raises:
        ValueError: for a dtype other than float16, float32 and float64.
    """
    from chainermn import nccl

    dtype = numpy.dtype(dtype)
    ids = {numpy.dtype(numpy.float16): 'NCCL_FLOAT16', numpy.dtype(numpy.float32): 'NCCL_FLOAT32',
           numpy.dtype(numpy.float64): 'NCCL_FLOAT64'}
    if dtype not in ids:
        raise ValueError(f'NCCL gradient communication supports float16, float32 and float64, '
                         f'not {dtype}')
    return getattr(nccl, ids[dtype])


def check_finite(arrays: Any) -> None:
    """Raise ValueError when an array holds NaN or infinity (debug mode of the allreduce)."""
    for a in arrays:
        xp = _array_module(a)
        if a.dtype.kind in 'fc' and not bool(xp.isfinite(a).all()):
            raise ValueError('Parameters diverged after allreduce: a gradient holds NaN or '
                             'infinity (debug mode checks every mean gradient)')


def _array_module(a: Any) -> Any:
    from chainer import backend

    return backend.get_array_module(a)
