"""The Poisson distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import exponential, lgamma
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class Poisson(distribution.Distribution):
    """Poisson distribution, of mass :math:`\\lambda^x e^{-\\lambda} / x!` on the
    non-negative integers.

    Samples are int32 and not differentiable.

    Args:
        lam: the positive rate :math:`\\lambda` (the mean).

    Raises:
        ValueError: in debug mode, for a rate that is not positive.
    """

    def __init__(self, lam: Variable | ArrayLike) -> None:
        self.lam, = utils.as_params('Poisson', lam=lam)
        utils.check_params('Poisson', lam=(self.lam, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.lam.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'lam': self.lam}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.lam)
        lam = self.lam

        def log_mass(x: Variable) -> Variable:
            return x * exponential.log(lam) - lam - lgamma.lgamma(x + 1)

        return utils.on_support(x, x.array >= 0, 0, log_mass)

    @property
    def mean(self) -> Variable:
        return self.lam

    @property
    def variance(self) -> Variable:
        return self.lam

    @property
    def support(self) -> str:
        return 'non negative integer'

    def sample_n(self, n: int) -> Variable:
        lam = self.lam.array
        x = utils.random(self.xp, 'poisson', (n,) + lam.shape, lam.dtype, lam)
        return Variable(x, requires_grad=False)


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1: Poisson, dist2: Poisson) -> Variable:
    lam1, lam2 = dist1.lam, dist2.lam
    return lam1 * (exponential.log(lam1) - exponential.log(lam2)) - lam1 + lam2
