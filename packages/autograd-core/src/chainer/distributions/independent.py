"""Reinterpreting batch axes of a distribution as event axes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.distribution import Distribution, kl_divergence, register_kl
from chainer.distributions import utils
from chainer.functions.array import expand_dims, reshape
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import Xp


class Independent(Distribution):
    """The distribution whose events join the last ``reinterpreted_batch_ndims`` batch
    axes of ``distribution`` to its events, taken as independent.

    Log-probabilities and entropies are sums over the reinterpreted axes; moments and
    samples are those of ``distribution``.

    Args:
        distribution: the base distribution.
        reinterpreted_batch_ndims: how many trailing batch axes become event axes
            (default: all but the first).

    Raises:
        ValueError: when ``reinterpreted_batch_ndims`` is negative or exceeds the number
            of batch axes of ``distribution``.
    """

    def __init__(self, distribution: Distribution,
                 reinterpreted_batch_ndims: int | None = None) -> None:
        ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(0, ndim - 1)
        reinterpreted_batch_ndims = int(reinterpreted_batch_ndims)
        if not 0 <= reinterpreted_batch_ndims <= ndim:
            raise ValueError(
                f'Independent: reinterpreted_batch_ndims must be in [0, {ndim}] (the batch '
                f'axes of the distribution, of shape {distribution.batch_shape}), not '
                f'{reinterpreted_batch_ndims}')
        self.distribution = distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def _n_batch(self) -> int:
        return len(self.distribution.batch_shape) - self.reinterpreted_batch_ndims

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.distribution.batch_shape[:self._n_batch]

    @property
    def event_shape(self) -> tuple[int, ...]:
        return (self.distribution.batch_shape[self._n_batch:]
                + self.distribution.event_shape)

    @property
    def params(self) -> dict[str, Variable]:
        return self.distribution.params

    @property
    def xp(self) -> Xp:
        return self.distribution.xp

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        return utils.sum_last(self.distribution.log_prob(x), self.reinterpreted_batch_ndims)

    @property
    def entropy(self) -> Variable:
        return utils.sum_last(self.distribution.entropy, self.reinterpreted_batch_ndims)

    @property
    def mean(self) -> Variable:
        return self.distribution.mean

    @property
    def mode(self) -> Variable:
        return self.distribution.mode

    @property
    def variance(self) -> Variable:
        return self.distribution.variance

    @property
    def stddev(self) -> Variable:
        return self.distribution.stddev

    @property
    def covariance(self) -> Variable:
        """The covariance of the flattened events: block diagonal, of shape
        ``batch_shape + (d, d)`` with ``d`` the size of the events."""
        inner = self.distribution
        n = 1
        for s in inner.batch_shape[self._n_batch:]:
            n *= s
        if inner.event_shape:
            k = 1
            for s in inner.event_shape:
                k *= s
            blocks = reshape.reshape(inner.covariance, self.batch_shape + (n, k, k))
        else:
            k = 1
            blocks = reshape.reshape(inner.variance, self.batch_shape + (n, 1, 1))
        xp = self.xp
        eye = xp.eye(n, dtype=blocks.dtype).reshape(n, 1, n, 1)
        full = expand_dims.expand_dims(blocks, -2) * eye
        return reshape.reshape(full, self.batch_shape + (n * k, n * k))

    @property
    def support(self) -> str:
        return self.distribution.support

    def sample_n(self, n: int) -> Variable:
        return self.distribution.sample_n(n)


@register_kl(Independent, Independent)
def _kl_independent_independent(dist1: Independent, dist2: Independent) -> Variable:
    if (dist1.reinterpreted_batch_ndims != dist2.reinterpreted_batch_ndims
            or dist1.event_shape != dist2.event_shape):
        raise ValueError('kl_divergence: Independent distributions with different event '
                         f'shapes ({dist1.event_shape} and {dist2.event_shape})')
    kl = kl_divergence(dist1.distribution, dist2.distribution)
    return utils.sum_last(kl, dist1.reinterpreted_batch_ndims)
