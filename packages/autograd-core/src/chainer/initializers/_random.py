"""The shared mechanism of the random initializers.

Each draws from a zero-centred normal or uniform distribution whose spread is
``scale`` times a factor of the fans. For a scheme whose variance is ``v * scale^2``
(LeCun: 1 / fan_in, Glorot: 2 / (fan_in + fan_out), He: 2 / fan), the normal
standard deviation is ``scale * sqrt(v)`` and the uniform bound is
``scale * sqrt(3 v)`` (U(-a, a) has variance a^2 / 3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.initializer import Initializer, get_fans

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


def pop_rng(kwargs: dict[str, Any]) -> Any:
    """The ``rng`` keyword of a random initializer (None: the global state).

    Raises:
        TypeError: for any other keyword.
    """
    rng = kwargs.pop('rng', None)
    if kwargs:
        raise TypeError(f'unexpected keyword arguments: {sorted(kwargs)}')
    return rng


class RandomInitializer(Initializer):
    """Fills with random values; subclasses set :attr:`distribution` and :meth:`variance`.

    Args:
        scale: the multiplier of the spread.
        dtype: the dtype.
        rng: a random generator with ``normal``/``uniform`` methods (default:
            the global ``numpy.random`` / ``cupy.random`` state).
    """

    distribution = 'normal'

    def __init__(self, scale: float, dtype: DTypeSpec | None = None, **kwargs: Any) -> None:
        super().__init__(dtype)
        self.scale = scale
        self.rng = pop_rng(kwargs)

    def variance(self, shape: tuple[int, ...]) -> float:
        """The variance of the distribution for ``scale == 1`` (1: the spread is ``scale``)."""
        return 1.0 if self.distribution == 'normal' else 1.0 / 3.0

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        v = self.variance(array.shape)
        xp = backend.get_array_module(array)
        rng = self.rng if self.rng is not None else xp.random
        if self.distribution == 'normal':
            values = rng.normal(0.0, self.scale * numpy.sqrt(v), array.shape)
        else:
            bound = self.scale * numpy.sqrt(3.0 * v)
            values = rng.uniform(-bound, bound, array.shape)
        xp.copyto(array, xp.asarray(values), casting='unsafe')


def lecun_variance(shape: tuple[int, ...]) -> float:
    """1 / fan_in."""
    return 1.0 / get_fans(shape)[0]


def glorot_variance(shape: tuple[int, ...]) -> float:
    """2 / (fan_in + fan_out)."""
    fan_in, fan_out = get_fans(shape)
    return 2.0 / (fan_in + fan_out)


def he_variance(shape: tuple[int, ...], fan_option: str = 'fan_in') -> float:
    """2 / fan, with fan the fan_in or the fan_out."""
    fan_in, fan_out = get_fans(shape)
    return 2.0 / (fan_in if fan_option == 'fan_in' else fan_out)
