"""Batch normalization with the statistics of the whole batch, over all processes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray
    from chainermn.communicators.communicator_base import CommunicatorBase



def _allreduce(comm: CommunicatorBase, backend_name: str, x: Any) -> Any:
    """The sum of ``x`` over all processes, by MPI or by NCCL."""
    if backend_name == 'nccl':
        return comm._nccl_allreduce(x)
    return comm.allreduce(x)


class MultiNodeBatchNormalizationFunction(chainer.FunctionNode):
    """Batch normalization in training mode, the batch being the union of the local
    batches of all processes.

    Forward sums the per-channel counts, sums and squared deviations over the processes
    (two allreduces); backward sums the per-channel gradient terms (one allreduce), so
    that the input gradient is that of the whole batch. The gradients of ``gamma`` and
    ``beta`` stay local: averaging them over the processes (as the multi-node optimizer
    does) gives those of the whole batch. Running averages, when given, are updated in
    place with the global mean and unbiased variance.

    Args:
        comm: a ChainerMN communicator.
        eps: added to the variance.
        mean, var: running averages to update (or None).
        decay: their decay rate.
        communication_backend: ``'mpi'`` or ``'nccl'``.
    """

    def __init__(self, comm: CommunicatorBase, eps: float = 2e-5, mean: NdArray | None = None,
                 var: NdArray | None = None,
                 decay: float = 0.9, communication_backend: str = 'mpi') -> None:
        self.comm = comm
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.backend = communication_backend

    def _expand(self, a: Any, ndim: int) -> Any:
        return a.reshape((1, *a.shape) + (1,) * (ndim - 1 - a.ndim))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        x, gamma, beta = inputs
        if x.ndim < gamma.ndim + 1 or x.shape[1:1 + gamma.ndim] != gamma.shape:
            raise ValueError(f'batch normalization: the input of shape {x.shape} does not '
                             f'have the channels {gamma.shape} after its batch axis')
        xp = backend.get_array_module(x)
        self._dtypes = (x.dtype, gamma.dtype, beta.dtype)
        cdtype = numpy.float64 if x.dtype == numpy.float64 else numpy.float32
        self._axes = axes = (0, *range(1 + gamma.ndim, x.ndim))
        xc = x.astype(cdtype, copy=False)
        local_n = x.size // gamma.size if gamma.size else 0
        sums = xp.concatenate([xc.sum(axis=axes).reshape(-1),
                               xp.asarray([local_n], dtype=cdtype)])
        sums = _allreduce(self.comm, self.backend, sums)
        self._n = n = float(sums[-1])
        mean = (sums[:-1] / max(n, 1.0)).reshape(gamma.shape)
        centered = xc - self._expand(mean, x.ndim)
        var = _allreduce(self.comm, self.backend,
                         (centered * centered).sum(axis=axes)) / max(n, 1.0)
        self._inv_std = 1 / xp.sqrt(var + self.eps)
        self._gamma = gamma.astype(cdtype, copy=False)
        self._xhat = centered * self._expand(self._inv_std, x.ndim)
        y = self._xhat * self._expand(self._gamma, x.ndim) + self._expand(
            beta.astype(cdtype, copy=False), x.ndim)
        if self.running_mean is not None:
            self.running_mean *= self.decay
            self.running_mean += (1 - self.decay) * mean
        if self.running_var is not None:
            self.running_var *= self.decay
            self.running_var += (1 - self.decay) * var * (n / max(n - 1, 1.0))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        xp = backend.get_array_module(self._xhat)
        gy = grad_outputs[0]
        if gy is None:
            gy = xp.zeros(self._xhat.shape, self._dtypes[0])
        else:
            gy = gy.array
        gy = gy.astype(self._xhat.dtype, copy=False)
        ndim = gy.ndim
        gbeta = gy.sum(axis=self._axes)
        ggamma = (gy * self._xhat).sum(axis=self._axes)
        local = xp.concatenate([gbeta.reshape(-1), ggamma.reshape(-1)])
        total = _allreduce(self.comm, self.backend, local)
        half = gbeta.size
        gbeta_all = total[:half].reshape(gbeta.shape)
        ggamma_all = total[half:].reshape(ggamma.shape)
        gx = self._expand(self._gamma * self._inv_std, ndim) * (
            gy - (self._xhat * self._expand(ggamma_all, ndim)
                  + self._expand(gbeta_all, ndim)) / max(self._n, 1.0))
        x_dtype, gamma_dtype, beta_dtype = self._dtypes
        return (chainer.Variable(gx.astype(x_dtype, copy=False)),
                chainer.Variable(ggamma.astype(gamma_dtype, copy=False)),
                chainer.Variable(gbeta.astype(beta_dtype, copy=False)))
