"""Batch normalization over the batches of all processes, as a link."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import initializers
from chainermn.functions.batch_normalization import MultiNodeBatchNormalizationFunction

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, InitializerSpec, ShapeSpec, VariableOrArray
    from chainermn.communicators.communicator_base import CommunicatorBase

_BACKENDS = ('mpi', 'nccl', 'auto')


def _resolve_backend(comm: CommunicatorBase, name: str) -> str:
    if name not in _BACKENDS:
        raise ValueError(f'communication_backend must be one of {_BACKENDS}, got {name!r}')
    has_nccl = hasattr(comm, '_nccl_allreduce')
    if name == 'auto':
        return 'nccl' if has_nccl else 'mpi'
    if name == 'nccl' and not has_nccl:
        raise ValueError(f"communication_backend='nccl' needs a pure_nccl communicator, not "
                         f'{type(comm).__name__}')
    return name


def _initializer(value: Any, default: float, dtype: DTypeSpec) -> Any:
    if value is None:
        value = default
    if isinstance(value, (int, float, numpy.number)):
        return initializers.Constant(value, dtype=dtype)
    return value


class MultiNodeBatchNormalization(chainer.Link):
    """Batch normalization whose statistics are those of the batches of all processes.

    With small per-process batches, :class:`chainer.links.BatchNormalization` computes
    unreliable statistics on each process; this link sums them over the processes (in
    training mode), so that data-parallel training behaves as one process on the whole
    batch. In test mode (``chainer.config.train`` False) it uses the running averages.

    Args:
        size: the channel shape (int or tuple).
        comm: a ChainerMN communicator.
        decay: decay rate of the running averages.
        eps: added to the variance.
        dtype: dtype of the parameters and statistics (default ``chainer.config.dtype``,
            float32 for mixed16).
        use_gamma: learn a scale ``gamma`` (else 1).
        use_beta: learn a shift ``beta`` (else 0).
        initial_gamma, initial_beta: their initializers or values (1 and 0).
        communication_backend: ``'mpi'``, ``'nccl'`` (pure_nccl communicators) or
            ``'auto'`` (NCCL where the communicator has it).

    Raises:
        ValueError: for an unknown ``communication_backend``, or ``'nccl'`` with a
            communicator without NCCL.
    """

    def __init__(self, size: ShapeSpec, comm: CommunicatorBase, decay: float = 0.9,
                 eps: float = 2e-5, dtype: DTypeSpec | None = None, use_gamma: bool = True,
                 use_beta: bool = True,
                 initial_gamma: InitializerSpec | None = None,
                 initial_beta: InitializerSpec | None = None,
                 communication_backend: str = 'auto') -> None:
        super().__init__()
        size = (size,) if isinstance(size, (int, numpy.integer)) else tuple(size)
        self.comm = comm
        self.decay = decay
        self.eps = eps
        self.communication_backend = _resolve_backend(comm, communication_backend)
        self._dtype = chainer.get_dtype(dtype, map_mixed16=numpy.float32)
        self.add_persistent('avg_mean', numpy.zeros(size, self._dtype))
        self.add_persistent('avg_var', numpy.zeros(size, self._dtype))
        self.add_persistent('N', 0)
        with self.init_scope():
            if use_gamma:
                self.gamma = chainer.Parameter(_initializer(initial_gamma, 1, self._dtype),
                                               size)
            if use_beta:
                self.beta = chainer.Parameter(_initializer(initial_beta, 0, self._dtype), size)
        self._size = size

    def forward(self, x: VariableOrArray, finetune: bool = False) -> chainer.Variable:
        """Normalize ``x`` (batch axis first, then the channel axes).

        Args:
            x: the input.
            finetune: accumulate the running averages as plain means over the calls
                (decay ``1 - 1/N``) instead of with ``decay``.
        """
        xp = self.xp
        gamma = getattr(self, 'gamma', None)
        beta = getattr(self, 'beta', None)
        if gamma is None:
            gamma = xp.ones(self._size, self._dtype)
        if beta is None:
            beta = xp.zeros(self._size, self._dtype)
        if not chainer.config.train:
            return chainer.functions.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        func = MultiNodeBatchNormalizationFunction(
            self.comm, self.eps, self.avg_mean, self.avg_var, decay,
            self.communication_backend)
        return func.apply((x, gamma, beta))[0]

    def start_finetuning(self) -> None:
        """Reset the count of :meth:`forward` calls with ``finetune=True``."""
        self.N = 0
