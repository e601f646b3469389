"""Initializers drawing from normal distributions."""

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


class Normal(RandomInitializer):
    """Draws from N(0, scale^2).

    Example:
        >>> import numpy as np
        >>> from chainer import initializers
        >>> w = np.empty((100, 100), np.float32)
        >>> initializers.Normal(scale=0.1, rng=np.random.RandomState(0))(w)
        >>> w.shape, w.dtype
        ((100, 100), dtype('float32'))
        >>> round(float(w.std()), 2)
        0.1
    """

    def __init__(self, scale: float = 0.05, dtype: DTypeSpec | None = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)


class LeCunNormal(RandomInitializer):
    """Draws from N(0, scale^2 / fan_in)."""

    def __init__(self, scale: float = 1.0, dtype: DTypeSpec | None = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    variance = staticmethod(lecun_variance)


class GlorotNormal(RandomInitializer):
    """Draws from N(0, scale^2 * 2 / (fan_in + fan_out)) (Xavier initialization)."""

    def __init__(self, scale: float = 1.0, dtype: DTypeSpec | None = None, **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)

    variance = staticmethod(glorot_variance)


class HeNormal(RandomInitializer):
    """Draws from N(0, scale^2 * 2 / fan) with fan = fan_in or fan_out.

    Raises:
        ValueError: when ``fan_option`` is neither 'fan_in' nor 'fan_out'.
    """

    def __init__(self, scale: float = 1.0, dtype: DTypeSpec | None = None,
                 fan_option: str = 'fan_in',
                 **kwargs: Any) -> None:
        super().__init__(scale, dtype, **kwargs)
        if fan_option not in ('fan_in', 'fan_out'):
            raise ValueError(f"fan_option must be 'fan_in' or 'fan_out', not {fan_option!r}")
        self.fan_option = fan_option

    def variance(self, shape: tuple[int, ...]) -> float:
        return he_variance(shape, self.fan_option)
