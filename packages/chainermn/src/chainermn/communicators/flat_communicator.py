"""The flat communicator: all gradients packed into one buffer, one MPI allreduce."""

from __future__ import annotations

from typing import Any

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase, mean_in_place


class FlatCommunicator(MpiCommunicatorBase):
    """Averages all gradients of a model with one ``MPI_Allreduce`` per dtype.

    The gradients are packed into one buffer (on the GPU for CuPy arrays, then moved to
    host memory in one transfer), which pays off for models with many small
    parameters. Works with NumPy and CuPy arrays and any MPI.
    """

    def _mean_grads(self, grads: list[Any]) -> None:
        mean_in_place(self.mpi_comm, grads)
