"""The Pareto distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.array import where
from chainer.functions.math import exponential
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _finite_where(condition: Any, value: Any, dtype: Any) -> Variable:
    """``value`` where ``condition`` holds, else ``inf``."""
    return where.where(condition, value, numpy.dtype(dtype).type(numpy.inf))


class Pareto(distribution.Distribution):
    """Pareto distribution, of density :math:`\\alpha s^\\alpha / x^{\\alpha + 1}` for
    :math:`x \\geq s`.

    The mean is infinite for :math:`\\alpha \\leq 1`, the variance for
    :math:`\\alpha \\leq 2`. Samples are reparameterized.

    Args:
        scale: the positive scale :math:`s` (the lower bound of the support).
        alpha: the positive shape :math:`\\alpha`.

    Raises:
        ValueError: in debug mode, for a parameter that is not positive.
    """

    def __init__(self, scale: Variable | ArrayLike, alpha: Variable | ArrayLike) -> None:
        self.scale, self.alpha = utils.as_params('Pareto', scale=scale, alpha=alpha)
        utils.check_params('Pareto', scale=(self.scale, 'positive'),
                           alpha=(self.alpha, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.scale.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'scale': self.scale, 'alpha': self.alpha}

    def _inside(self, x: Variable) -> Any:
        return x.array >= self.scale.array

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.scale)
        alpha = self.alpha

        def log_density(x: Variable) -> Variable:
            return (exponential.log(alpha) + alpha * exponential.log(self.scale)
                    - (alpha + 1) * exponential.log(x))

        return utils.on_support(x, self._inside(x), self.scale.array, log_density)

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.scale)
        return utils.on_support(x, self._inside(x), self.scale.array,
                                lambda x: 1 - (self.scale / x) ** self.alpha, outside=0)

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.scale)
        return self.scale * (1 - x) ** (-1 / self.alpha)

    @property
    def entropy(self) -> Variable:
        return exponential.log(self.scale / self.alpha) + 1 / self.alpha + 1

    @property
    def mean(self) -> Variable:
        alpha = self.alpha
        finite = alpha.array > 1
        safe = where.where(finite, alpha, alpha.dtype.type(2))
        return _finite_where(finite, safe * self.scale / (safe - 1), alpha.dtype)

    @property
    def mode(self) -> Variable:
        return self.scale

    @property
    def variance(self) -> Variable:
        alpha = self.alpha
        finite = alpha.array > 2
        safe = where.where(finite, alpha, alpha.dtype.type(3))
        value = self.scale ** 2 * safe / ((safe - 1) ** 2 * (safe - 2))
        return _finite_where(finite, value, alpha.dtype)

    @property
    def support(self) -> str:
        return '[scale, inf]'

    def sample_n(self, n: int) -> Variable:
        e = utils.random(self.xp, 'standard_exponential', (n,) + self.batch_shape,
                         self.scale.dtype)
        return self.scale * exponential.exp(e / self.alpha)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1: Pareto, dist2: Pareto) -> Variable:
    ratio = dist2.alpha / dist1.alpha
    value = (-exponential.log(ratio) + dist2.alpha * exponential.log(dist1.scale / dist2.scale)
             + ratio - 1)
    # Outside the support of dist2, dist1 has mass: the divergence is infinite.
    return _finite_where(dist1.scale.array >= dist2.scale.array, value, value.dtype)
