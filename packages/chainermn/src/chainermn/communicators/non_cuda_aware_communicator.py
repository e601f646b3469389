"""The non_cuda_aware communicator: for clusters whose MPI cannot read GPU memory."""

from __future__ import annotations

from chainermn.communicators.hierarchical_communicator import HierarchicalCommunicator


class NonCudaAwareCommunicator(HierarchicalCommunicator):
    """NCCL within each machine, MPI between machines through host memory.

    This project's MPI steps always go through host memory, so this is the
    :class:`HierarchicalCommunicator` algorithm under v7's name for it.
    """

    _name = 'non_cuda_aware'
