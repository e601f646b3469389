"""Communicators: how the processes of a ChainerMN job exchange arrays and gradients."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from chainermn.communicators.communicator_base import CommunicatorBase

if TYPE_CHECKING:
    from mpi4py import MPI

_COMMUNICATORS = {
    'naive': ('naive_communicator', 'NaiveCommunicator'),
    'flat': ('flat_communicator', 'FlatCommunicator'),
    'hierarchical': ('hierarchical_communicator', 'HierarchicalCommunicator'),
    'two_dimensional': ('two_dimensional_communicator', 'TwoDimensionalCommunicator'),
    'single_node': ('single_node_communicator', 'SingleNodeCommunicator'),
    'non_cuda_aware': ('non_cuda_aware_communicator', 'NonCudaAwareCommunicator'),
    'pure_nccl': ('pure_nccl_communicator', 'PureNcclCommunicator'),
}


def create_communicator(communicator_name: str = 'pure_nccl', mpi_comm: MPI.Comm | None = None,
                        **kwargs: Any) -> CommunicatorBase:
    """Create a ChainerMN communicator (collective: every process calls it).

    ====================  ======  ============  ===============================================
    name                  CPU     GPU           algorithm of ``multi_node_mean_grad``
    ====================  ======  ============  ===============================================
    ``naive``             yes     yes           one MPI allreduce per gradient array
    ``flat``              yes     yes           all gradients packed, one MPI allreduce
    ``pure_nccl``                 NCCL          one NCCL allreduce over all GPUs (float16 too)
    ``single_node``               NCCL          ``pure_nccl`` on one machine
    ``hierarchical``              NCCL          NCCL in each machine, MPI between machines
    ``non_cuda_aware``            NCCL          the same, for an MPI without CUDA support
    ``two_dimensional``           NCCL          NCCL reduce-scatter/all-gather, MPI between
    ====================  ======  ============  ===============================================

    MPI transfers of CuPy arrays go through host memory, so any MPI works.

    Args:
        communicator_name: one of the names above (v7's default is ``pure_nccl``; on
            CPU use ``naive`` or ``flat``).
        mpi_comm: an mpi4py communicator (default ``mpi4py.MPI.COMM_WORLD``).
        **kwargs: configurations, e.g. ``allreduce_grad_dtype`` (``pure_nccl``) or
            ``batched_copy``.

    Raises:
        ValueError: for an unknown name or configuration.
        RuntimeError: for an NCCL communicator without CuPy, NCCL or a CUDA device.
    """
    if communicator_name not in _COMMUNICATORS:
        raise ValueError(f'unknown communicator {communicator_name!r}: choose one of '
                         f'{sorted(_COMMUNICATORS)}')
    module, name = _COMMUNICATORS[communicator_name]
    cls = getattr(importlib.import_module(f'chainermn.communicators.{module}'), name)
    if mpi_comm is None:
        from mpi4py import MPI

        mpi_comm = MPI.COMM_WORLD
    comm = cls(mpi_comm)
    for key, value in kwargs.items():
        comm.set_config(key, value)
    return comm
