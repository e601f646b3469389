"""The log-normal distribution."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import exponential, exponential_m1, ndtr, ndtri
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
# v7's name: log p(x) = LOGPROBC - log(x) - log(sigma) - z**2 / 2
LOGPROBC = -_LOG_SQRT_2PI


class LogNormal(distribution.Distribution):
    """Log-normal distribution: of :math:`e^Y` where :math:`Y` is normal with mean
    :math:`\\mu` and standard deviation :math:`\\sigma`.

    Samples are reparameterized (``exp(mu + sigma * eps)``).

    Args:
        mu: the mean of the logarithm.
        sigma: the positive standard deviation of the logarithm.

    Raises:
        ValueError: in debug mode, for ``sigma`` not positive.
    """

    def __init__(self, mu: Variable | ArrayLike, sigma: Variable | ArrayLike) -> None:
        self.mu, self.sigma = utils.as_params('LogNormal', mu=mu, sigma=sigma)
        utils.check_params('LogNormal', sigma=(self.sigma, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.mu.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'mu': self.mu, 'sigma': self.sigma}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.mu)

        def log_density(x: Variable) -> Variable:
            log_x = exponential.log(x)
            return (-log_x - exponential.log(self.sigma) - _LOG_SQRT_2PI
                    - 0.5 * ((log_x - self.mu) / self.sigma) ** 2)

        return utils.on_support(x, x.array > 0, 1, log_density)

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.mu)

        def cdf(x: Variable) -> Variable:
            return ndtr.ndtr((exponential.log(x) - self.mu) / self.sigma)

        return utils.on_support(x, x.array > 0, 1, cdf, outside=0)

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.mu)
        return exponential.exp(self.mu + self.sigma * ndtri.ndtri(x))

    @property
    def entropy(self) -> Variable:
        return self.mu + exponential.log(self.sigma) + (0.5 + _LOG_SQRT_2PI)

    @property
    def mean(self) -> Variable:
        return exponential.exp(self.mu + 0.5 * self.sigma ** 2)

    @property
    def mode(self) -> Variable:
        return exponential.exp(self.mu - self.sigma ** 2)

    @property
    def variance(self) -> Variable:
        s2 = self.sigma ** 2
        return exponential_m1.expm1(s2) * exponential.exp(2 * self.mu + s2)

    @property
    def support(self) -> str:
        return 'positive'

    def sample_n(self, n: int) -> Variable:
        eps = utils.random(self.xp, 'standard_normal', (n,) + self.batch_shape,
                           self.mu.dtype)
        return exponential.exp(self.mu + self.sigma * eps)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1: LogNormal, dist2: LogNormal) -> Variable:
    ratio = dist1.sigma / dist2.sigma
    diff = (dist1.mu - dist2.mu) / dist2.sigma
    return -exponential.log(ratio) + 0.5 * (ratio ** 2 + diff ** 2) - 0.5
