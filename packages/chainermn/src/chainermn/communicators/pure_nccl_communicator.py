"""The pure_nccl communicator: gradients averaged by one NCCL allreduce over all GPUs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainermn import nccl
from chainermn.communicators._nccl_communicator_base import NcclCommunicatorBase

if TYPE_CHECKING:
    from mpi4py import MPI


class PureNcclCommunicator(NcclCommunicatorBase):
    """Averages all gradients with one NCCL allreduce over every process (one GPU each).

    The gradients are packed into one buffer of the communication dtype: the
    configuration ``allreduce_grad_dtype`` (float16, float32 or float64) when set, else
    float32 when ``chainer.config.dtype`` is float32 (float64 when it is float64) and
    float16 otherwise (float16 or mixed16), as in v7.

    Attributes:
        nccl_comm: the NCCL communicator (None until first used, and after
            :meth:`finalize`).
    """

    _name = 'pure_nccl'
    _config_defaults = {'batched_copy': True, 'allreduce_grad_dtype': None}

    def __init__(self, mpi_comm: MPI.Comm) -> None:
        super().__init__(mpi_comm)
        self.nccl_comm: Any | None = None  # a cupy.cuda.nccl.NcclCommunicator

    def _check_config(self, name: str, value: Any, **kwargs: Any) -> Any:
        if name == 'allreduce_grad_dtype' and not kwargs:
            if value is None:
                return None
            dtype = numpy.dtype(value)
            if dtype not in (numpy.float16, numpy.float32, numpy.float64):
                raise ValueError(f'allreduce_grad_dtype must be float16, float32, float64 or '
                                 f'None, got {dtype}')
            return dtype
        return super()._check_config(name, value, **kwargs)

    def _init_comms(self) -> Any:
        """The NCCL communicator, created if needed (collective)."""
        comm = self.nccl_comm
        if comm is None:
            comm = self.nccl_comm = self._new_nccl_comm(self.mpi_comm)
        return comm

    def _comm_dtype(self) -> numpy.dtype:
        if self._configs['allreduce_grad_dtype'] is not None:
            return self._configs['allreduce_grad_dtype']
        config = chainer.config.dtype
        if config is not chainer.mixed16 and config is not None:
            dtype = numpy.dtype(config)
            if dtype in (numpy.float32, numpy.float64):
                return dtype
        return numpy.dtype(numpy.float16)

    def _mean_grads(self, grads: list[Any]) -> None:
        nccl_comm = self._init_comms()
        if not grads:
            return
        dtype = self._comm_dtype()
        buf = self._pack(grads, dtype)
        if dtype == numpy.float16:
            buf *= 1.0 / self.size  # scale first: a float16 sum overflows sooner
        stream = self._stream()
        nccl_comm.allReduce(buf.data.ptr, buf.data.ptr, buf.size, self._nccl_type(dtype),
                                 nccl.NCCL_SUM, stream.ptr)
        if dtype != numpy.float16:
            buf *= 1.0 / self.size
        self._unpack(buf, grads)

    def _nccl_allreduce(self, x: Any) -> Any:
        """The sum of the CuPy array ``x`` over all processes, by NCCL (a new array)."""
        import cupy  # layout: optional

        nccl_comm = self._init_comms()
        x = cupy.ascontiguousarray(x)
        out = cupy.empty_like(x)
        nccl_comm.allReduce(x.data.ptr, out.data.ptr, x.size, self._nccl_type(x.dtype),
                                 nccl.NCCL_SUM, self._stream().ptr)
        return out

    def finalize(self) -> None:
        """Destroy the NCCL communicator."""
        if self.nccl_comm is not None:
            self.nccl_comm.destroy()
            self.nccl_comm = None
