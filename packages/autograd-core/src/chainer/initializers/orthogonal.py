"""Orthogonal initialization."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.initializer import Initializer
from chainer.initializers._random import pop_rng


class Orthogonal(Initializer):
    """Fills with a (semi-)orthogonal matrix, scaled by ``scale``.

    The array is viewed as a matrix of shape ``(shape[0], prod(shape[1:]))``;
    its rows are orthonormal when there are no more rows than columns, and its
    columns otherwise (``mode='auto'``). ``mode='projection'`` requires rows <=
    columns and ``mode='embedding'`` rows >= columns.

    Args:
        scale: the multiplier.
        dtype: the dtype.
        mode: ``'auto'``, ``'projection'`` or ``'embedding'``.
        rng: (keyword) a random generator with a ``standard_normal`` or ``normal``
            method.

    Raises:
        ValueError: for a 0- or 1-dimensional array, an unknown mode, or a shape
            the mode cannot make orthogonal.
        TypeError: for a keyword argument other than ``rng``.
    """

    def __init__(self, scale: float = 1.1, dtype: Any = None, mode: str = 'auto',
                 **kwargs: Any) -> None:
        super().__init__(dtype)
        if mode not in ('auto', 'projection', 'embedding'):
            raise ValueError(f"mode must be 'auto', 'projection' or 'embedding', not {mode!r}")
        self.scale = scale
        self.mode = mode
        self.rng = pop_rng(kwargs)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        if array.ndim < 2:
            raise ValueError(f'Orthogonal needs at least 2 dimensions, not shape {array.shape}')
        rows = array.shape[0]
        cols = array.size // rows if rows else 0
        if self.mode == 'projection' and rows > cols:
            raise ValueError(f'projection mode needs rows <= columns, got {rows} x {cols}')
        if self.mode == 'embedding' and rows < cols:
            raise ValueError(f'embedding mode needs rows >= columns, got {rows} x {cols}')
        if array.size == 0:
            return
        rng = self.rng if self.rng is not None else numpy.random
        # A standard Gaussian matrix of the array's (flattened) shape; QR of it, or of its
        # transpose when it is wide, with R's diagonal made non-negative so that Q is
        # unique (a Haar-distributed orthogonal system).
        gauss = numpy.asarray(rng.normal(0.0, 1.0, (rows, cols)))
        wide = rows < cols
        q, r = numpy.linalg.qr(gauss.T if wide else gauss)
        q *= numpy.sign(numpy.diag(r))
        matrix = q.T if wide else q
        xp = backend.get_array_module(array)
        values = (self.scale * matrix).reshape(array.shape)
        xp.copyto(array, xp.asarray(values, dtype=array.dtype))
