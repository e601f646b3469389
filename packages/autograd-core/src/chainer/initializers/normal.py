"""Initializers drawing from normal distributions."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.initializer import Initializer, get_fans


def _normal(array: Any, std: float, rng: Any) -> None:
    xp = backend.get_array_module(array)
    if rng is None:
        values = xp.random.normal(0.0, std, array.shape)
    else:
        values = rng.normal(0.0, std, array.shape)
    xp.copyto(array, xp.asarray(values), casting='unsafe')


class Normal(Initializer):
    """Draws from N(0, scale^2).

    Args:
        scale: the standard deviation.
        dtype: the dtype.
        rng: a random generator with a ``normal`` method (default: the
            global ``numpy.random`` / ``cupy.random`` state).
    """

    def __init__(self, scale: float = 0.05, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(dtype)
        self.scale = scale
        self.rng = kwargs.pop('rng', None)
        if kwargs:
            raise TypeError(f'unexpected keyword arguments: {sorted(kwargs)}')

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        _normal(array, self.scale, self.rng)


class LeCunNormal(Normal):
    """Draws from N(0, scale^2 / fan_in)."""

    def __init__(self, scale: float = 1.0, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        fan_in, _ = get_fans(array.shape)
        _normal(array, self.scale * numpy.sqrt(1.0 / fan_in), self.rng)


class GlorotNormal(Normal):
    """Draws from N(0, scale^2 * 2 / (fan_in + fan_out)) (Xavier initialization)."""

    def __init__(self, scale: float = 1.0, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        fan_in, fan_out = get_fans(array.shape)
        _normal(array, self.scale * numpy.sqrt(2.0 / (fan_in + fan_out)), self.rng)


class HeNormal(Normal):
    """Draws from N(0, scale^2 * 2 / fan) with fan = fan_in or fan_out.

    Raises:
        ValueError: when ``fan_option`` is neither 'fan_in' nor 'fan_out'.
    """

    def __init__(self, scale: float = 1.0, dtype: Any = None, fan_option: str = 'fan_in',
                 **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)
        if fan_option not in ('fan_in', 'fan_out'):
            raise ValueError(f"fan_option must be 'fan_in' or 'fan_out', not {fan_option!r}")
        self.fan_option = fan_option

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        fan_in, fan_out = get_fans(array.shape)
        fan = fan_in if self.fan_option == 'fan_in' else fan_out
        _normal(array, self.scale * numpy.sqrt(2.0 / fan), self.rng)
