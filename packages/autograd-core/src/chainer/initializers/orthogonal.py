"""Orthogonal initialization."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.initializer import Initializer
from chainer.initializers._random import pop_rng

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, NdArray

_MODES = ('auto', 'projection', 'embedding', 'basis')


class Orthogonal(Initializer):
    """Fills with a (semi-)orthogonal matrix, scaled by ``scale``.

    The array is viewed as a matrix of shape ``(shape[0], prod(shape[1:]))``
    (a 0-dimensional array as a 1 x 1 matrix, a 1-dimensional one as a
    column); its rows are orthonormal when there are no more rows than
    columns, and its columns otherwise (``mode='auto'``). The matrix is drawn
    uniformly (Haar measure) among those matrices. ``mode='projection'``
    requires rows <= columns, ``mode='embedding'`` rows >= columns and
    ``mode='basis'`` a square matrix.

    Args:
        scale: the multiplier.
        dtype: the dtype.
        mode: ``'auto'``, ``'projection'``, ``'embedding'`` or ``'basis'``.
        rng: (keyword) a random generator with a ``standard_normal`` or ``normal``
            method.

    Raises:
        ValueError: for an empty array, an unknown mode, or a shape the mode
            cannot make orthogonal.
        TypeError: for a keyword argument other than ``rng``.
    """

    def __init__(self, scale: float = 1.1, dtype: DTypeSpec | None = None, mode: str = 'auto',
                 **kwargs: Any) -> None:
        super().__init__(dtype)
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {', '.join(map(repr, _MODES))}, not {mode!r}")
        self.scale = scale
        self.mode = mode
        self.rng = pop_rng(kwargs)

    def __call__(self, array: NdArray) -> None:
        self._check_dtype(array)
        if array.size == 0:
            raise ValueError(f'Orthogonal cannot fill an empty array (shape {array.shape})')
        rows = array.shape[0] if array.ndim else 1
        cols = array.size // rows
        if self.mode == 'projection' and rows > cols:
            raise ValueError(f'projection mode needs rows <= columns, got {rows} x {cols}')
        if self.mode == 'embedding' and rows < cols:
            raise ValueError(f'embedding mode needs rows >= columns, got {rows} x {cols}')
        if self.mode == 'basis' and rows != cols:
            raise ValueError(f'basis mode needs a square matrix, got {rows} x {cols}')
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
