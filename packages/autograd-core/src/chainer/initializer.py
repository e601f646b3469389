"""The base class of initializers and the fan-in/fan-out helper."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, NdArray


class Initializer:
    """Fills an array in place with initial values.

    Args:
        dtype: the dtype the initializer produces (None: ``config.dtype``).
    """

    def __init__(self, dtype: DTypeSpec | None = None) -> None:
        self.dtype = None if dtype is None else numpy.dtype(dtype)

    def __call__(self, array: NdArray) -> None:
        """Fill ``array`` in place."""
        raise NotImplementedError

    def _check_dtype(self, array: Any) -> None:
        if self.dtype is not None and array.dtype != self.dtype:
            raise ValueError(f'{type(self).__name__} makes {self.dtype} values; the array is '
                             f'{array.dtype}')


def get_fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """Return ``(fan_in, fan_out)`` of a weight of ``shape``.

    ``fan_in = shape[1] * prod(shape[2:])`` and ``fan_out = shape[0] * prod(shape[2:])``.

    Raises:
        ValueError: for a shape of fewer than two dimensions.
    """
    if not isinstance(shape, tuple):
        raise ValueError(f'shape must be a tuple, not {type(shape).__name__}')
    if len(shape) < 2:
        raise ValueError(f'fans are defined for at least two dimensions, not shape {shape}')
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive
