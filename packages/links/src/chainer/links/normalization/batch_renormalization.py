"""BatchRenormalization: batch renormalization with running statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import functions
from chainer.links.normalization import _affine
from chainer.links.normalization.batch_normalization import (
    BatchNormalization,
    finetune_argument,
)

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer (Ioffe, 2017).

    In training mode the batch statistics are corrected towards the running
    ones by ``r`` (clipped to ``[1/rmax, rmax]``) and ``d`` (clipped to
    ``[-dmax, dmax]``); see :func:`chainer.functions.batch_renormalization`.
    With the defaults ``rmax=1, dmax=0`` it is batch normalization. In test
    mode the running statistics are used, as in :class:`BatchNormalization`.

    Args:
        size: the shape of the parameters (int or tuple).
        rmax: the bound of the scale correction.
        dmax: the bound of the shift correction.
        decay: the decay rate of the running statistics.
        eps: added to the variances.
        dtype: the dtype of the parameters and statistics.
        use_gamma: whether to have ``gamma``.
        use_beta: whether to have ``beta``.
        initial_gamma: initializer of ``gamma`` (ones by default).
        initial_beta: initializer of ``beta`` (zeros by default).
        initial_avg_mean: initializer of ``avg_mean`` (zeros by default).
        initial_avg_var: initializer of ``avg_var`` (ones by default).
    """

    def __init__(self, size: ShapeSpec, rmax: float = 1, dmax: float = 0, decay: float = 0.9,
                 eps: float = 2e-5, dtype: DTypeSpec | None = None, use_gamma: bool = True,
                 use_beta: bool = True, initial_gamma: InitializerSpec | None = None,
                 initial_beta: InitializerSpec | None = None,
                 initial_avg_mean: InitializerSpec | None = None,
                 initial_avg_var: InitializerSpec | None = None) -> None:
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta, initial_gamma,
                         initial_beta, initial_avg_mean=initial_avg_mean,
                         initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax
        self._prev_stats: tuple[Any, Any] | None = None

    def forward(self, x: VariableOrArray, **kwargs: Any) -> Variable:
        """Renormalize ``x`` (training mode) or normalize it with the running statistics.

        Args:
            x: the input.
            finetune: (keyword) if True, in training mode, make the statistics
                the average over all the batches seen.

        Raises:
            ValueError: for the removed ``test`` argument.
            TypeError: for another keyword argument.
        """
        finetune = finetune_argument(kwargs)
        mean, var = self._statistics()
        gamma, beta = _affine.gamma_beta(self, mean.shape, self._highprec_dtype)
        if not chainer.config.train:
            return functions.fixed_batch_normalization(x, gamma, beta, mean, var, self.eps)
        if chainer.config.in_recomputing:
            # forget() recomputes: use the statistics of the first pass, unchanged.
            avg_mean, avg_var = self._prev_stats or (mean, var)
            return functions.batch_renormalization(
                x, gamma, beta, self.rmax, self.dmax, self.eps, avg_mean, avg_var,
                self.decay, update_statistics=False)
        if not chainer.config.enable_backprop:
            # A pass without a graph may be recomputed later by forget().
            self._prev_stats = (mean.copy(), var.copy())
        if finetune:
            self.N += 1
            decay = 1. - 1. / self.N
        else:
            decay = self.decay
        return functions.batch_renormalization(
            x, gamma, beta, self.rmax, self.dmax, self.eps, self.avg_mean, self.avg_var,
            decay, update_statistics=True)
