"""What the NCCL-based communicators share: NCCL set-up and packing gradients on the GPU."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainermn import nccl
from chainermn.communicators import _communication_utility as utility
from chainermn.communicators import _memory_utility as memory
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.types import DTypeSpec


class NcclCommunicatorBase(MpiCommunicatorBase):
    """An MPI communicator whose gradient averaging runs on CUDA devices with NCCL.

    NCCL communicators are created on first use (collectively). The gradients must be
    CuPy arrays; the array and object transfers of :class:`MpiCommunicatorBase` work as
    for the MPI communicators.

    Raises:
        RuntimeError: at creation, when CuPy, NCCL or a CUDA device is missing.
    """

    _name = 'this'

    def __init__(self, mpi_comm: Any) -> None:
        nccl.require(f'the {self._name} communicator')
        super().__init__(mpi_comm)

    def _new_nccl_comm(self, mpi_comm: Any) -> Any:
        """An NCCL communicator over the processes of ``mpi_comm`` (collective)."""
        module = nccl.require(f'the {self._name} communicator')
        uid = module.get_unique_id() if mpi_comm.rank == 0 else None
        uid = mpi_comm.bcast(uid, root=0)
        return module.NcclCommunicator(mpi_comm.size, uid, mpi_comm.rank)

    @staticmethod
    def _stream() -> Any:
        import cupy  # layout: optional

        return cupy.cuda.get_current_stream()

    @staticmethod
    def _pack(grads: list[Any], dtype: DTypeSpec) -> Any:
        """The gradients, cast to ``dtype``, one after the other in one device buffer."""
        import cupy  # layout: optional

        for g in grads:
            if not memory.is_gpu_array(g):
                raise TypeError('the NCCL communicators average CuPy gradients: move the '
                                'model to a GPU first (model.to_device(...))')
        return cupy.concatenate([g.reshape(-1).astype(dtype, copy=False) for g in grads])

    @staticmethod
    def _unpack(buf: Any, grads: list[Any]) -> None:
        offset = 0
        for g in grads:
            g[...] = buf[offset:offset + g.size].reshape(g.shape)
            offset += g.size

    @staticmethod
    def _nccl_type(dtype: DTypeSpec) -> int:
        return utility._get_nccl_type_id(dtype)

    def _groups(self, grads: list[Any]) -> dict[Any, list[Any]]:
        """``grads`` grouped by the float dtype their sum is computed in."""
        groups: dict[Any, list[Any]] = {}
        for g in grads:
            dtype = numpy.dtype(g.dtype)
            if dtype.kind != 'f':
                raise TypeError(f'cannot average gradients of dtype {dtype} with NCCL')
            groups.setdefault(dtype, []).append(g)
        return groups

    def _mean_grad_async(self, model: Link, zero_fill: bool = False) -> Any:
        """Average the gradients of ``model`` on a stream of its own; returns a handle
        whose ``wait()`` waits for that stream."""
        import cupy  # layout: optional

        grads = self._grads_to_reduce(model, zero_fill)
        ready = cupy.cuda.get_current_stream().record()
        stream = self.__dict__.get('_async_stream')
        if stream is None:
            stream = cupy.cuda.Stream(non_blocking=True)
            object.__setattr__(self, '_async_stream', stream)
        stream.wait_event(ready)
        with stream:
            self._mean_grads(grads)
        return _StreamDone(stream)


class _StreamDone:
    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def wait(self) -> None:
        self._stream.synchronize()
