"""The Dirichlet distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.array import expand_dims, where
from chainer.functions.math import digamma, exponential, lgamma
from chainer.functions.math import sum as sum_mod
from chainer.utils import cache
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _sum(x: Variable) -> Variable:
    return sum_mod.sum(x, axis=-1)


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution over the probability vectors of ``k`` classes, of density
    :math:`\\Gamma(\\alpha_0) \\prod_i x_i^{\\alpha_i - 1} / \\prod_i \\Gamma(\\alpha_i)`
    with :math:`\\alpha_0 = \\sum_i \\alpha_i`.

    Events have the shape ``(k,)``. Samples are not differentiable.

    Args:
        alpha: the positive concentrations, classes on the last axis.

    Raises:
        ValueError: when ``alpha`` is 0-dimensional; in debug mode, for a concentration
            that is not positive.
    """

    def __init__(self, alpha: Variable | ArrayLike) -> None:
        self.alpha, = utils.as_params('Dirichlet', alpha=alpha)
        if self.alpha.ndim == 0:
            raise ValueError('Dirichlet: alpha needs a last axis over the classes, but it '
                             'is 0-dimensional')
        utils.check_params('Dirichlet', alpha=(self.alpha, 'positive'))

    @cache.cached_property
    def alpha0(self) -> Variable:
        """The total concentration :math:`\\alpha_0` (shape ``batch_shape``)."""
        return _sum(self.alpha)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.alpha.shape[:-1]

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self.alpha.shape[-1:]

    @property
    def params(self) -> dict[str, Variable]:
        return {'alpha': self.alpha}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.alpha)
        data = x.array
        inside = ((data >= 0) & (data <= 1)).all(axis=-1, keepdims=True)

        def log_density(x: Variable) -> Variable:
            return (_sum((self.alpha - 1) * exponential.log(x))
                    + lgamma.lgamma(self.alpha0) - _sum(lgamma.lgamma(self.alpha)))

        if bool(inside.all()):
            return log_density(x)
        safe = x.dtype.type(1 / self.alpha.shape[-1])
        value = log_density(where.where(inside, x, safe))
        return utils.restrict_to_support(value, inside[..., 0], float('-inf'))

    @property
    def entropy(self) -> Variable:
        alpha, alpha0 = self.alpha, self.alpha0
        k = alpha.shape[-1]
        return (_sum(lgamma.lgamma(alpha)) - lgamma.lgamma(alpha0)
                + (alpha0 - k) * digamma.digamma(alpha0)
                - _sum((alpha - 1) * digamma.digamma(alpha)))

    @property
    def mean(self) -> Variable:
        return self.alpha / expand_dims.expand_dims(self.alpha0, -1)

    @property
    def variance(self) -> Variable:
        alpha0 = expand_dims.expand_dims(self.alpha0, -1)
        return self.alpha * (alpha0 - self.alpha) / (alpha0 ** 2 * (alpha0 + 1))

    @property
    def support(self) -> str:
        return '[0, 1]'

    def sample_n(self, n: int) -> Variable:
        alpha = self.alpha.array
        xp = self.xp
        k = alpha.shape[-1]
        # Row by row, n Dirichlet draws each: Chainer v7's order of draws, so that a
        # seeded NumPy gives the same samples.
        rows = alpha.reshape(-1, k).astype(numpy.float64)
        x = xp.stack([xp.random.dirichlet(row, size=n) for row in rows], axis=1)
        return Variable(x.reshape((n,) + alpha.shape).astype(alpha.dtype),
                        requires_grad=False)


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1: Dirichlet, dist2: Dirichlet) -> Variable:
    a1, a2 = dist1.alpha, dist2.alpha
    psi0 = expand_dims.expand_dims(digamma.digamma(dist1.alpha0), -1)
    return (lgamma.lgamma(dist1.alpha0) - _sum(lgamma.lgamma(a1))
            - lgamma.lgamma(dist2.alpha0) + _sum(lgamma.lgamma(a2))
            + _sum((a1 - a2) * (digamma.digamma(a1) - psi0)))
