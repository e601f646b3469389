"""The naive communicator: one MPI allreduce per gradient array, on CPU or GPU."""

from __future__ import annotations

from typing import Any

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase, mean_in_place


class NaiveCommunicator(MpiCommunicatorBase):
    """Averages each gradient with its own ``MPI_Allreduce`` (NumPy arrays in place).

    Works with NumPy and CuPy arrays and any MPI (CuPy arrays go through host memory):
    the communicator for CPU training and for testing.
    """

    def _mean_grads(self, grads: list[Any]) -> None:
        for g in grads:
            mean_in_place(self.mpi_comm, [g], pack=False)
