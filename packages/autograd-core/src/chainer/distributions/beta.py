"""The beta distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import digamma, exponential, lgamma, logarithm_1p
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from chainer.types import VariableOrArray


def lbeta(a: VariableOrArray, b: VariableOrArray) -> Variable:
    """The logarithm of the beta function :math:`B(a, b)`."""
    return lgamma.lgamma(a) + lgamma.lgamma(b) - lgamma.lgamma(a + b)


class Beta(distribution.Distribution):
    """Beta distribution, of density :math:`x^{a-1}(1-x)^{b-1} / B(a, b)` on [0, 1].

    Samples are not differentiable.

    Args:
        a, b: the positive shape parameters.

    Raises:
        ValueError: in debug mode, for a parameter that is not positive.
    """

    def __init__(self, a: Variable | ArrayLike, b: Variable | ArrayLike) -> None:
        self.a, self.b = utils.as_params('Beta', a=a, b=b)
        utils.check_params('Beta', a=(self.a, 'positive'), b=(self.b, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.a.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'a': self.a, 'b': self.b}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.a)
        data = x.array

        def log_density(x: Variable) -> Variable:
            return ((self.a - 1) * exponential.log(x)
                    + (self.b - 1) * logarithm_1p.log1p(-x) - lbeta(self.a, self.b))

        return utils.on_support(x, (data >= 0) & (data <= 1), 0.5, log_density)

    @property
    def entropy(self) -> Variable:
        a, b = self.a, self.b
        return (lbeta(a, b) - (a - 1) * digamma.digamma(a) - (b - 1) * digamma.digamma(b)
                + (a + b - 2) * digamma.digamma(a + b))

    @property
    def mean(self) -> Variable:
        return self.a / (self.a + self.b)

    @property
    def variance(self) -> Variable:
        total = self.a + self.b
        return self.a * self.b / (total ** 2 * (total + 1))

    @property
    def support(self) -> str:
        return '[0, 1]'

    def sample_n(self, n: int) -> Variable:
        a, b = self.a.array, self.b.array
        x = utils.random(self.xp, 'beta', (n,) + a.shape, a.dtype, a, b)
        return Variable(x, requires_grad=False)


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1: Beta, dist2: Beta) -> Variable:
    a1, b1, a2, b2 = dist1.a, dist1.b, dist2.a, dist2.b
    return (lbeta(a2, b2) - lbeta(a1, b1) + (a1 - a2) * digamma.digamma(a1)
            + (b1 - b2) * digamma.digamma(b1)
            + (a2 - a1 + b2 - b1) * digamma.digamma(a1 + b1))
