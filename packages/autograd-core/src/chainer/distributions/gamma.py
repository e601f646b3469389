"""The gamma distribution (shape ``k``, scale ``theta``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import digamma, exponential, lgamma
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class Gamma(distribution.Distribution):
    """Gamma distribution, of density
    :math:`x^{k-1} e^{-x/\\theta} / (\\Gamma(k) \\theta^k)` for :math:`x > 0`.

    Samples are not differentiable.

    Args:
        k: the positive shape parameter.
        theta: the positive scale parameter.

    Raises:
        ValueError: in debug mode, for a parameter that is not positive.
    """

    def __init__(self, k: Variable | ArrayLike, theta: Variable | ArrayLike) -> None:
        self.k, self.theta = utils.as_params('Gamma', k=k, theta=theta)
        utils.check_params('Gamma', k=(self.k, 'positive'), theta=(self.theta, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.k.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'k': self.k, 'theta': self.theta}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.k)
        k, theta = self.k, self.theta

        def log_density(x: Variable) -> Variable:
            return ((k - 1) * exponential.log(x) - x / theta
                    - k * exponential.log(theta) - lgamma.lgamma(k))

        return utils.on_support(x, x.array >= 0, 1, log_density)

    @property
    def entropy(self) -> Variable:
        k = self.k
        return (k + exponential.log(self.theta) + lgamma.lgamma(k)
                + (1 - k) * digamma.digamma(k))

    @property
    def mean(self) -> Variable:
        return self.k * self.theta

    @property
    def variance(self) -> Variable:
        return self.k * self.theta ** 2

    @property
    def support(self) -> str:
        return 'positive'

    def sample_n(self, n: int) -> Variable:
        k, theta = self.k.array, self.theta.array
        x = utils.random(self.xp, 'gamma', (n,) + k.shape, k.dtype, k, theta)
        return Variable(x, requires_grad=False)


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1: Gamma, dist2: Gamma) -> Variable:
    k1, t1, k2, t2 = dist1.k, dist1.theta, dist2.k, dist2.theta
    return ((k1 - k2) * digamma.digamma(k1) - lgamma.lgamma(k1) + lgamma.lgamma(k2)
            + k2 * (exponential.log(t2) - exponential.log(t1)) + k1 * (t1 / t2 - 1))
