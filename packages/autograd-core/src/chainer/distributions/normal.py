"""The normal (Gaussian) distribution."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.math import exponential, log_ndtr, ndtr, ndtri
from chainer.utils import cache
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_ENTROPY_C = 0.5 * math.log(2 * math.pi * math.e)
# v7's names: entropy = log(scale) + ENTROPYC, log p = LOGPROBC - log(scale) - z**2 / 2,
# p = PROBC / scale * exp(-z**2 / 2).
ENTROPYC = _ENTROPY_C
LOGPROBC = -_LOG_SQRT_2PI
PROBC = 1.0 / math.sqrt(2 * math.pi)


class Normal(distribution.Distribution):
    """Normal distribution, of density
    :math:`p(x) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}} \\exp(-\\frac{(x-\\mu)^2}{2\\sigma^2})`.

    Samples are reparameterized (``loc + scale * eps``): differentiable with respect to
    the parameters.

    Args:
        loc: the mean :math:`\\mu` (variable, array or number).
        scale: the standard deviation :math:`\\sigma` (positive).
        log_scale: keyword only, :math:`\\log\\sigma`, given instead of ``scale``.

    Raises:
        ValueError: unless exactly one of ``scale`` and ``log_scale`` is given; in debug
            mode, for a scale that is not positive.
        TypeError: for another keyword argument.
    """

    def __init__(self, loc: Variable | ArrayLike, scale: Variable | ArrayLike | None = None,
                 **kwargs: Any) -> None:
        log_scale = kwargs.pop('log_scale', None)
        if kwargs:
            raise TypeError(f'Normal got unexpected keyword arguments: {sorted(kwargs)}')
        if (scale is None) == (log_scale is None):
            raise ValueError('Normal: give either scale or log_scale (not both)')
        self._scale: Variable | None
        self._log_scale: Variable | None
        if scale is not None:
            self.loc, self._scale = utils.as_params('Normal', loc=loc, scale=scale)
            self._log_scale = None
            utils.check_params('Normal', scale=(self._scale, 'positive'))
        else:
            self.loc, self._log_scale = utils.as_params('Normal', loc=loc, log_scale=log_scale)
            self._scale = None
            utils.check_params('Normal', log_scale=(self._log_scale, 'not_nan'))

    @cache.cached_property
    def scale(self) -> Variable:
        """The standard deviation :math:`\\sigma`."""
        if self._scale is not None:
            return self._scale
        assert self._log_scale is not None  # __init__ sets exactly one of _scale and _log_scale
        return exponential.exp(self._log_scale)

    @cache.cached_property
    def log_scale(self) -> Variable:
        """The logarithm of the standard deviation."""
        if self._log_scale is not None:
            return self._log_scale
        assert self._scale is not None  # __init__ sets exactly one of _scale and _log_scale
        return exponential.log(self._scale)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'loc': self.loc, 'scale': self.scale}

    def _z(self, x: Variable | ArrayLike) -> Variable:
        return (utils.as_points(x, self.loc) - self.loc) / self.scale

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        return -0.5 * self._z(x) ** 2 - self.log_scale - _LOG_SQRT_2PI

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        return ndtr.ndtr(self._z(x))

    def log_cdf(self, x: Variable | ArrayLike) -> Variable:
        return log_ndtr.log_ndtr(self._z(x))

    def survival_function(self, x: Variable | ArrayLike) -> Variable:
        return ndtr.ndtr(-self._z(x))

    def log_survival_function(self, x: Variable | ArrayLike) -> Variable:
        return log_ndtr.log_ndtr(-self._z(x))

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        return self.loc + self.scale * ndtri.ndtri(utils.as_points(x, self.loc))

    @property
    def entropy(self) -> Variable:
        return self.log_scale + _ENTROPY_C

    @property
    def mean(self) -> Variable:
        return self.loc

    @property
    def mode(self) -> Variable:
        return self.loc

    @property
    def variance(self) -> Variable:
        return self.scale ** 2

    @property
    def stddev(self) -> Variable:
        return self.scale

    @property
    def support(self) -> str:
        return 'real'

    def sample_n(self, n: int) -> Variable:
        eps = utils.random(self.xp, 'standard_normal', (n,) + self.batch_shape,
                           self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1: Normal, dist2: Normal) -> Variable:
    ratio = dist1.scale / dist2.scale
    diff = (dist1.loc - dist2.loc) / dist2.scale
    return dist2.log_scale - dist1.log_scale + 0.5 * (ratio ** 2 + diff ** 2) - 0.5
