"""The chi-square distribution."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import digamma, exponential, lgamma
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_LOG2 = math.log(2)


class Chisquare(distribution.Distribution):
    """Chi-square distribution with ``k`` degrees of freedom: the gamma distribution of
    shape ``k / 2`` and scale 2.

    Samples are not differentiable.

    Args:
        k: the positive degrees of freedom.

    Raises:
        ValueError: in debug mode, for ``k`` not positive.
    """

    def __init__(self, k: Variable | ArrayLike) -> None:
        self.k, = utils.as_params('Chisquare', k=k)
        utils.check_params('Chisquare', k=(self.k, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.k.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'k': self.k}

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.k)
        half_k = 0.5 * self.k

        def log_density(x: Variable) -> Variable:
            return ((half_k - 1) * exponential.log(x) - 0.5 * x - half_k * _LOG2
                    - lgamma.lgamma(half_k))

        return utils.on_support(x, x.array >= 0, 1, log_density)

    @property
    def entropy(self) -> Variable:
        half_k = 0.5 * self.k
        return (half_k + _LOG2 + lgamma.lgamma(half_k)
                + (1 - half_k) * digamma.digamma(half_k))

    @property
    def mean(self) -> Variable:
        return self.k

    @property
    def variance(self) -> Variable:
        return 2 * self.k

    @property
    def support(self) -> str:
        return 'positive'

    def sample_n(self, n: int) -> Variable:
        k = self.k.array
        x = utils.random(self.xp, 'chisquare', (n,) + k.shape, k.dtype, k)
        return Variable(x, requires_grad=False)
