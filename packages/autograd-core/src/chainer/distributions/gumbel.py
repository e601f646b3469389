"""The Gumbel distribution (of maxima)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import exponential, lgamma
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_EULER = float(numpy.euler_gamma)
# v7's name: the Euler-Mascheroni constant (mean = loc + EULER * scale)
EULER = _EULER


class Gumbel(distribution.Distribution):
    """Gumbel distribution, of density :math:`e^{-(z + e^{-z})} / \\beta` with
    :math:`z = (x - \\mu) / \\beta`.

    Samples are reparameterized.

    Args:
        loc: the location :math:`\\mu` (the mode).
        scale: the positive scale :math:`\\beta`.

    Raises:
        ValueError: in debug mode, for a scale that is not positive.
    """

    def __init__(self, loc: Variable | ArrayLike, scale: Variable | ArrayLike) -> None:
        self.loc, self.scale = utils.as_params('Gumbel', loc=loc, scale=scale)
        utils.check_params('Gumbel', scale=(self.scale, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'loc': self.loc, 'scale': self.scale}

    def _z(self, x: Variable | ArrayLike) -> Variable:
        return (utils.as_points(x, self.loc) - self.loc) / self.scale

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        z = self._z(x)
        return -exponential.log(self.scale) - z - exponential.exp(-z)

    def log_cdf(self, x: Variable | ArrayLike) -> Variable:
        return -exponential.exp(-self._z(x))

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.loc)
        return self.loc - self.scale * exponential.log(-exponential.log(x))

    @property
    def entropy(self) -> Variable:
        return exponential.log(self.scale) + (_EULER + 1)

    @property
    def mean(self) -> Variable:
        return self.loc + _EULER * self.scale

    @property
    def mode(self) -> Variable:
        return self.loc

    @property
    def variance(self) -> Variable:
        return (math.pi ** 2 / 6) * self.scale ** 2

    @property
    def support(self) -> str:
        return 'real'

    def sample_n(self, n: int) -> Variable:
        g = utils.random(self.xp, 'gumbel', (n,) + self.batch_shape, self.loc.dtype)
        return self.loc + self.scale * g


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1: Gumbel, dist2: Gumbel) -> Variable:
    ratio = dist1.scale / dist2.scale
    shift = (dist1.loc - dist2.loc) / dist2.scale
    return (-exponential.log(ratio) + _EULER * (ratio - 1) + shift
            + exponential.exp(lgamma.lgamma(ratio + 1) - shift) - 1)
