"""Random matrices with given singular values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

if TYPE_CHECKING:
    from chainer.types import DTypeSpec

__all__ = ['generate_matrix']


def _random_orthogonal(n: int, batch: tuple[int, ...], complex_: bool) -> numpy.ndarray:
    a = numpy.random.normal(size=batch + (n, n))
    if complex_:
        a = a + 1j * numpy.random.normal(size=batch + (n, n))
    q, r = numpy.linalg.qr(a)
    # Fix the signs so that the distribution is uniform (Haar).
    d = numpy.diagonal(r, axis1=-2, axis2=-1)
    phase = d / numpy.where(numpy.abs(d) == 0, 1, numpy.abs(d))
    return q * phase[..., None, :]


def _broadcast_to(array: Any, shape: tuple[int, ...]) -> numpy.ndarray:
    """``array`` broadcast to ``shape`` (a read-only view), with a clear error on mismatch."""
    array = numpy.asarray(array)
    try:
        return numpy.broadcast_to(array, shape)
    except ValueError:
        raise ValueError(f'cannot broadcast an array of shape {array.shape} to {shape}') from None


def generate_matrix(shape: tuple[int, ...], dtype: DTypeSpec = float,
                    **kwargs: Any) -> numpy.ndarray:
    """A random matrix (or batch of matrices) of ``shape`` with given singular values.

    Args:
        shape: ``(..., M, N)``.
        dtype: a float or complex dtype.
        singular_values: (keyword, required) the singular values, broadcastable
            to ``shape[:-2] + (min(M, N),)``; they must be non-negative.

    Raises:
        TypeError, ValueError: for a missing or bad argument.
    """
    if 'singular_values' not in kwargs:
        raise TypeError('generate_matrix needs the keyword argument singular_values')
    singular_values = numpy.asarray(kwargs.pop('singular_values'))
    if kwargs:
        raise TypeError(f'unexpected keyword arguments {sorted(kwargs)}')
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError(f'dtype must be float or complex, not {dtype}')
    if len(shape) < 2:
        raise ValueError(f'shape must have at least two dimensions, not {shape}')
    if singular_values.dtype.kind == 'c':
        raise TypeError('singular values must be real')
    if (singular_values < 0).any():
        raise ValueError('singular values must be non-negative')
    *lead, m, n = shape
    batch = tuple(lead)
    k = min(m, n)
    s = _broadcast_to(singular_values, batch + (k,))
    u = _random_orthogonal(m, batch, dtype.kind == 'c')[..., :, :k]
    v = _random_orthogonal(n, batch, dtype.kind == 'c')[..., :k, :]
    return ((u * s[..., None, :]) @ v).astype(dtype)
