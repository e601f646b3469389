"""The Cauchy distribution."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import exponential, logarithm_1p, trigonometric
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_LOG_PI = math.log(math.pi)


class Cauchy(distribution.Distribution):
    """Cauchy distribution, of density
    :math:`1 / (\\pi \\gamma (1 + ((x - x_0) / \\gamma)^2))`.

    It has no mean nor variance: :attr:`mean` and :attr:`variance` warn
    (``RuntimeWarning``) and are NaN. Samples are reparameterized.

    Args:
        loc: the location :math:`x_0` (the median).
        scale: the positive scale :math:`\\gamma`.

    Raises:
        ValueError: in debug mode, for a scale that is not positive.
    """

    def __init__(self, loc: Variable | ArrayLike, scale: Variable | ArrayLike) -> None:
        self.loc, self.scale = utils.as_params('Cauchy', loc=loc, scale=scale)
        utils.check_params('Cauchy', scale=(self.scale, 'positive'))

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'loc': self.loc, 'scale': self.scale}

    def _z(self, x: Variable | ArrayLike) -> Variable:
        return (utils.as_points(x, self.loc) - self.loc) / self.scale

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        return -_LOG_PI - exponential.log(self.scale) - logarithm_1p.log1p(self._z(x) ** 2)

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        return 0.5 + trigonometric.arctan(self._z(x)) / math.pi

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.loc)
        return self.loc + self.scale * trigonometric.tan(math.pi * (x - 0.5))

    @property
    def entropy(self) -> Variable:
        return exponential.log(4 * math.pi * self.scale)

    def _undefined(self, what: str) -> Variable:
        warnings.warn(f'the Cauchy distribution has no {what}: it is NaN', RuntimeWarning)
        data = self.loc.array
        return Variable(self.xp.full(data.shape, float('nan'), data.dtype),
                        requires_grad=False)

    @property
    def mean(self) -> Variable:
        return self._undefined('mean')

    @property
    def mode(self) -> Variable:
        return self.loc

    @property
    def variance(self) -> Variable:
        return self._undefined('variance')

    @property
    def support(self) -> str:
        return 'real'

    def sample_n(self, n: int) -> Variable:
        c = utils.random(self.xp, 'standard_cauchy', (n,) + self.batch_shape, self.loc.dtype)
        return self.loc + self.scale * c
