"""The exponential distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import exponential, exponential_m1, logarithm_1p
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class Exponential(distribution.Distribution):
    """Exponential distribution, of density :math:`\\lambda e^{-\\lambda x}` for
    :math:`x \\geq 0`.

    Samples are reparameterized: differentiable with respect to ``lam``.

    Args:
        lam: the positive rate :math:`\\lambda`.

    Raises:
        ValueError: in debug mode, for a rate that is not positive.
    """

    def __init__(self, lam: Variable | ArrayLike) -> None:
        self.lam, = utils.as_params('Exponential', lam=lam)
        utils.check_params('Exponential', lam=(self.lam, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.lam.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'lam': self.lam}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.lam)
        return utils.on_support(
            x, x.array >= 0, 0, lambda x: exponential.log(self.lam) - self.lam * x)

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.lam)
        value = -exponential_m1.expm1(-self.lam * x)
        return utils.restrict_to_support(value, x.array >= 0, 0)

    def survival_function(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.lam)
        value = exponential.exp(-self.lam * x)
        return utils.restrict_to_support(value, x.array >= 0, 1)

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.lam)
        return -logarithm_1p.log1p(-x) / self.lam

    @property
    def entropy(self) -> Variable:
        return 1 - exponential.log(self.lam)

    @property
    def mean(self) -> Variable:
        return 1 / self.lam

    @property
    def mode(self) -> Variable:
        return 0 * self.lam

    @property
    def variance(self) -> Variable:
        return 1 / self.lam ** 2

    @property
    def stddev(self) -> Variable:
        return 1 / self.lam

    @property
    def support(self) -> str:
        return 'positive'

    def sample_n(self, n: int) -> Variable:
        e = utils.random(self.xp, 'standard_exponential', (n,) + self.batch_shape,
                         self.lam.dtype)
        return e / self.lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1: Exponential, dist2: Exponential) -> Variable:
    ratio = dist2.lam / dist1.lam
    return ratio - exponential.log(ratio) - 1
