"""Constant initializers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend
from chainer.initializer import Initializer

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, NdArray, ScalarValue


class Constant(Initializer):
    """Fills with ``fill_value`` (a scalar or an array broadcast to the shape).

    Example:
        >>> import numpy as np
        >>> from chainer import initializers
        >>> w = np.empty((2, 3), np.float32)
        >>> initializers.Constant(0.5)(w)
        >>> w
        array([[0.5, 0.5, 0.5],
               [0.5, 0.5, 0.5]], dtype=float32)
    """

    def __init__(self, fill_value: ScalarValue | NdArray, dtype: DTypeSpec | None = None) -> None:
        super().__init__(dtype)
        self.fill_value = fill_value

    def __call__(self, array: NdArray) -> None:
        self._check_dtype(array)
        value = self.fill_value
        if not numpy.isscalar(value) and hasattr(value, 'shape'):
            value = backend.get_device_from_array(array).send(value)
        xp = backend.get_array_module(array)
        xp.copyto(array, xp.asarray(value, dtype=array.dtype), casting='unsafe')


class Zero(Constant):
    """Fills with zeros."""

    def __init__(self, dtype: DTypeSpec | None = None) -> None:
        super().__init__(0.0, dtype)


class One(Constant):
    """Fills with ones."""

    def __init__(self, dtype: DTypeSpec | None = None) -> None:
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fills with NaN (the default of an uninitialized parameter)."""

    def __init__(self, dtype: DTypeSpec | None = None) -> None:
        super().__init__(numpy.nan, dtype)


class Identity(Initializer):
    """Fills a square matrix with ``scale`` times the identity.

    Raises:
        ValueError: for an array that is not a square matrix.
    """

    def __init__(self, scale: float = 1.0, dtype: DTypeSpec | None = None) -> None:
        super().__init__(dtype)
        self.scale = scale

    def __call__(self, array: NdArray) -> None:
        self._check_dtype(array)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(f'Identity needs a square matrix, not shape {shape}')
        xp = backend.get_array_module(array)
        xp.copyto(array, xp.eye(shape[0], dtype=array.dtype) * self.scale)
