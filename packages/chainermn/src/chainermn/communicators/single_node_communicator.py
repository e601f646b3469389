"""The single_node communicator: NCCL allreduce among the GPUs of one machine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainermn.communicators.pure_nccl_communicator import PureNcclCommunicator

if TYPE_CHECKING:
    from mpi4py import MPI


class SingleNodeCommunicator(PureNcclCommunicator):
    """:class:`PureNcclCommunicator` for processes that all run on one machine.

    Raises:
        RuntimeError: without CuPy, NCCL or a CUDA device.
        ValueError: when the processes run on more than one machine.
    """

    _name = 'single_node'

    def __init__(self, mpi_comm: MPI.Comm) -> None:
        super().__init__(mpi_comm)
        if self.inter_size != 1:
            raise ValueError(f'the single_node communicator needs every process on one '
                             f'machine, but they run on {self.inter_size}')
