"""The flat communicator: all gradients packed into one buffer, one MPI allreduce."""

from __future__ import annotations

from typing import Any

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase, mean_in_place


class FlatCommunicator(MpiCommunicatorBase):
    """Averages the gradients of a model packed into one buffer per dtype, with one
    ``MPI_Allreduce`` each.

    Packing pays off for models with many small parameters, and for CuPy gradients
    (packed on the GPU, then moved to host memory in one transfer). Large NumPy
    gradients (256 KiB or more) are reduced in place instead, sparing two copies.
    Works with NumPy and CuPy arrays and any MPI.
    """

    def _mean_grads(self, grads: list[Any]) -> None:
        mean_in_place(self.mpi_comm, grads)
