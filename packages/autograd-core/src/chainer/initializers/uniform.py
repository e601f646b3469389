"""Initializers drawing from uniform distributions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.initializers._random import (
    RandomInitializer,
    glorot_variance,
    he_variance,
    lecun_variance,
)

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


class _Uniform(RandomInitializer):
    distribution = 'uniform'

    def __init__(self, scale: float = 1.0, dtype: DTypeSpec | None = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)


class Uniform(_Uniform):
    """Draws from U(-scale, scale)."""

    def __init__(self, scale: float = 0.05, dtype: DTypeSpec | None = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)


class LeCunUniform(_Uniform):
    """Draws from U(-s, s) with s = scale * sqrt(3 / fan_in)."""

    variance = staticmethod(lecun_variance)


class GlorotUniform(_Uniform):
    """Draws from U(-s, s) with s = scale * sqrt(6 / (fan_in + fan_out))."""

    variance = staticmethod(glorot_variance)


class HeUniform(_Uniform):
    """Draws from U(-s, s) with s = scale * sqrt(6 / fan_in)."""

    variance = staticmethod(he_variance)
