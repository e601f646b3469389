"""The two_dimensional communicator: NCCL reduce-scatter, MPI allreduce, NCCL all-gather."""

from __future__ import annotations

from typing import Any

from chainermn import nccl
from chainermn.communicators.hierarchical_communicator import HierarchicalCommunicator


class TwoDimensionalCommunicator(HierarchicalCommunicator):
    """Averages gradients in three steps that keep every process busy: an NCCL
    reduce-scatter within each machine (process ``i`` gets the ``i``-th slice), an MPI
    allreduce of each slice among the processes that hold it on every machine, and an
    NCCL all-gather within each machine."""

    _name = 'two_dimensional'

    def _mean_grads(self, grads: list[Any]) -> None:
        import cupy  # layout: optional

        intra_nccl = self._init_comms()
        parts = self.intra_size
        for dtype, group in self._groups(grads).items():
            packed = self._pack(group, dtype)
            chunk = -(-packed.size // parts)
            buf = cupy.zeros(chunk * parts, dtype)
            buf[:packed.size] = packed
            mine = cupy.empty(chunk, dtype)
            kind, stream = self._nccl_type(dtype), self._stream().ptr
            intra_nccl.reduceScatter(buf.data.ptr, mine.data.ptr, chunk, kind,
                                     nccl.NCCL_SUM, stream)
            self._inter_allreduce(mine)
            intra_nccl.allGather(mine.data.ptr, buf.data.ptr, chunk, kind, stream)
            buf *= 1.0 / self.size
            self._unpack(buf, group)
