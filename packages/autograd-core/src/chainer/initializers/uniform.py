"""Initializers drawing from uniform distributions."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.initializer import Initializer, get_fans


def _uniform(array: Any, bound: float, rng: Any) -> None:
    xp = backend.get_array_module(array)
    if rng is None:
        values = xp.random.uniform(-bound, bound, array.shape)
    else:
        values = rng.uniform(-bound, bound, array.shape)
    xp.copyto(array, xp.asarray(values), casting='unsafe')


class Uniform(Initializer):
    """Draws from U(-scale, scale)."""

    def __init__(self, scale: float = 0.05, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(dtype)
        self.scale = scale
        self.rng = kwargs.pop('rng', None)
        if kwargs:
            raise TypeError(f'unexpected keyword arguments: {sorted(kwargs)}')

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        _uniform(array, self.scale, self.rng)


class LeCunUniform(Uniform):
    """Draws from U(-s, s) with s = scale * sqrt(3 / fan_in)."""

    def __init__(self, scale: float = 1.0, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        fan_in, _ = get_fans(array.shape)
        _uniform(array, self.scale * numpy.sqrt(3.0 / fan_in), self.rng)


class GlorotUniform(Uniform):
    """Draws from U(-s, s) with s = scale * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, scale: float = 1.0, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        fan_in, fan_out = get_fans(array.shape)
        _uniform(array, self.scale * numpy.sqrt(6.0 / (fan_in + fan_out)), self.rng)


class HeUniform(Uniform):
    """Draws from U(-s, s) with s = scale * sqrt(6 / fan_in)."""

    def __init__(self, scale: float = 1.0, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        fan_in, _ = get_fans(array.shape)
        _uniform(array, self.scale * numpy.sqrt(6.0 / fan_in), self.rng)
