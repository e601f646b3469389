"""The hierarchical communicator: NCCL within each machine, MPI between machines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainermn import nccl
from chainermn.communicators import _communication_utility as utility
from chainermn.communicators import _memory_utility as memory
from chainermn.communicators._nccl_communicator_base import NcclCommunicatorBase

if TYPE_CHECKING:
    from mpi4py import MPI


class HierarchicalCommunicator(NcclCommunicatorBase):
    """Averages gradients in three steps: an NCCL reduce to the first process of each
    machine, an MPI allreduce among those processes (through host memory), and an NCCL
    broadcast back within each machine.

    Attributes:
        intra_nccl_comm: NCCL communicator among the processes of this machine (None
            until first used, and after :meth:`finalize`).
        inter_mpi_comm: MPI communicator among the processes with this process's
            ``intra_rank`` on every machine.
    """

    _name = 'hierarchical'

    def __init__(self, mpi_comm: MPI.Comm) -> None:
        super().__init__(mpi_comm)
        self.intra_nccl_comm: Any | None = None  # a cupy.cuda.nccl.NcclCommunicator
        self.inter_mpi_comm: Any | None = None  # an mpi4py.MPI.Comm

    def _init_comms(self) -> Any:
        """The intra-machine NCCL communicator; creates it and the inter-machine MPI
        communicator if needed (collective)."""
        if self.intra_nccl_comm is not None:
            return self.intra_nccl_comm
        intra = self.mpi_comm.Split(self.inter_rank, self.intra_rank)
        self.inter_mpi_comm = self.mpi_comm.Split(self.intra_rank, self.inter_rank)
        comm = self.intra_nccl_comm = self._new_nccl_comm(intra)
        return comm

    def _inter_allreduce(self, buf: Any) -> None:
        """Sum the device buffer ``buf`` over the machines, through host memory."""
        from mpi4py import MPI

        inter = self.inter_mpi_comm
        if inter is None:  # made by _init_comms, which _mean_grads calls first
            raise RuntimeError(f'the {self._name} communicator has no inter-machine '
                               'communicator: _init_comms was not called')
        self._stream().synchronize()
        host = memory.to_host(buf)
        summed = host.astype(utility.reduction_dtype(host.dtype))  # float16 via float32
        inter.Allreduce(MPI.IN_PLACE, summed, op=MPI.SUM)
        buf.set(summed.astype(host.dtype, copy=False))

    def _mean_grads(self, grads: list[Any]) -> None:
        intra_nccl = self._init_comms()
        for dtype, group in self._groups(grads).items():
            buf = self._pack(group, dtype)
            kind, stream = self._nccl_type(dtype), self._stream().ptr
            intra_nccl.reduce(buf.data.ptr, buf.data.ptr, buf.size, kind,
                                        nccl.NCCL_SUM, 0, stream)
            if self.intra_rank == 0:
                self._inter_allreduce(buf)
            intra_nccl.bcast(buf.data.ptr, buf.size, kind, 0, stream)
            buf *= 1.0 / self.size
            self._unpack(buf, group)

    def finalize(self) -> None:
        """Destroy the NCCL communicator."""
        if self.intra_nccl_comm is not None:
            self.intra_nccl_comm.destroy()
            self.intra_nccl_comm = None
