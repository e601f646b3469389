"""The continuous uniform distribution."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy

from chainer import distribution
from chainer.distributions import utils
from chainer.functions.array import broadcast, where
from chainer.functions.math import clip, exponential
from chainer.variable import Variable

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class Uniform(distribution.Distribution):
    """Uniform distribution on the interval [low, high].

    Give either ``low`` and ``high``, or ``loc`` (= low) and ``scale`` (= high - low),
    as keyword arguments. Samples are reparameterized.

    Args:
        low, high: the bounds of the interval (``low < high``).
        loc, scale: the lower bound and the positive width of the interval.

    Raises:
        ValueError: unless exactly one of the pairs is given; in debug mode, for an
            empty interval.
        TypeError: for another keyword argument.
    """

    def __init__(self, **kwargs: Any) -> None:
        names = set(kwargs)
        if names == {'low', 'high'}:
            self.low, self.high = utils.as_params('Uniform', low=kwargs['low'],
                                                  high=kwargs['high'])
            self.loc, self.scale = self.low, self.high - self.low
            checked = 'high - low'
        elif names == {'loc', 'scale'}:
            self.loc, self.scale = utils.as_params('Uniform', loc=kwargs['loc'],
                                                   scale=kwargs['scale'])
            self.low, self.high = self.loc, self.loc + self.scale
            checked = 'scale'
        else:
            unknown = names - {'low', 'high', 'loc', 'scale'}
            if unknown:
                raise TypeError(f'Uniform got unexpected keyword arguments: {sorted(unknown)}')
            raise ValueError('Uniform: give either low and high, or loc and scale, as '
                             f'keyword arguments (got {sorted(names)})')
        utils.check_params('Uniform', **{checked: (self.scale, 'positive')})

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.low.shape

    @property
    def params(self) -> dict[str, Variable]:
        return {'low': self.low, 'high': self.high}

    def _inside(self, x: Variable) -> Any:
        return (x.array >= self.low.array) & (x.array <= self.high.array)

    def log_prob(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.low)
        inside = self._inside(x)
        value = broadcast.broadcast_to(-exponential.log(self.scale), inside.shape)
        return utils.restrict_to_support(value, inside, -numpy.inf)

    def cdf(self, x: Variable | ArrayLike) -> Variable:
        x = utils.as_points(x, self.low)
        return clip.clip((x - self.low) / self.scale, 0.0, 1.0)

    def icdf(self, x: Variable | ArrayLike) -> Variable:
        return self.low + self.scale * utils.as_points(x, self.low)

    @property
    def entropy(self) -> Variable:
        return exponential.log(self.scale)

    @property
    def mean(self) -> Variable:
        return self.low + 0.5 * self.scale

    @property
    def variance(self) -> Variable:
        return self.scale ** 2 / 12

    @property
    def stddev(self) -> Variable:
        return self.scale / math.sqrt(12)

    @property
    def support(self) -> str:
        return '[low, high]'

    def sample_n(self, n: int) -> Variable:
        u = utils.random(self.xp, 'uniform', (n,) + self.batch_shape, self.low.dtype)
        return self.low + self.scale * u


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1: Uniform, dist2: Uniform) -> Variable:
    value = exponential.log(dist2.scale) - exponential.log(dist1.scale)
    inside = ((dist2.low.array <= dist1.low.array)
              & (dist1.high.array <= dist2.high.array))
    return where.where(inside, value, value.dtype.type(numpy.inf))
