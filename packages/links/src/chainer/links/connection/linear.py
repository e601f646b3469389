"""Linear: the fully-connected layer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

from chainer import functions, initializers
from chainer.link import Link
from chainer.variable import Parameter, as_array

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class Linear(Link):
    """Fully-connected layer: ``y = x W^T + b``.

    ``W`` has shape ``(out_size, in_size)`` and ``b`` shape ``(out_size,)``.
    Give one size (``Linear(out_size)``) or ``in_size=None`` to let the input
    size be read off the first input: ``x.size // x.shape[0]`` (more generally
    the product of the dimensions after ``n_batch_axes``).

    Args:
        in_size: the input size, or None for lazy initialization.
        out_size: the output size (when omitted, ``in_size`` is the output size).
        nobias: if True, there is no bias (``self.b`` is None).
        initialW: initializer of the weight (LeCun normal by default).
        initial_bias: initializer of the bias (zero by default).

    Example:
        >>> import numpy as np
        >>> import chainer.links as L
        >>> layer = L.Linear(3, 2, initialW=np.ones((2, 3), np.float32), initial_bias=0.5)
        >>> layer.W.shape, layer.b.shape
        ((2, 3), (2,))
        >>> layer(np.array([[1., 2., 3.]], np.float32)).array
        array([[6.5, 6.5]], dtype=float32)
        >>> lazy = L.Linear(None, 4)
        >>> lazy(np.zeros((2, 5), np.float32)).shape, lazy.W.shape
        ((2, 4), (4, 5))
    """

    def __init__(self, in_size: int | None, out_size: int | None = None, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None) -> None:
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        if out_size is None:
            raise ValueError('Linear needs an output size')
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = Parameter(initializers._get_initializer(initial_bias), out_size)

    @classmethod
    def from_params(cls, W: VariableOrArray, b: VariableOrArray | None = None,
                    nobias: bool = False) -> Linear:
        """Build a Linear whose parameters are copies of ``W`` (and ``b``).

        Args:
            W: weight array or Variable of shape ``(out_size, in_size)``.
            b: bias array or Variable of shape ``(out_size,)`` (zero when None).
            nobias: if True, there is no bias.

        Raises:
            ValueError: when ``W`` is not 2-dimensional or ``b`` has the wrong size.
        """
        W = as_array(W)
        if W.ndim != 2:
            raise ValueError(f'W must be 2-dimensional, not of shape {W.shape}')
        out_size, in_size = W.shape
        if b is not None:
            b = as_array(b)
            if b.size != out_size:
                raise ValueError(
                    f'`out_size` ({out_size}) does not match the size of `b` ({b.size})')
        return cls(in_size, out_size, nobias, initialW=W.copy(),
                   initial_bias=None if b is None else b.copy())

    def _initialize_params(self, in_size: int) -> None:
        self.W.initialize((self.out_size, in_size))

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """``in_size``, ``out_size`` and ``nobias``."""
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    def forward(self, x: VariableOrArray, n_batch_axes: int = 1) -> Variable:
        """Apply the layer to ``x`` (initializing ``W`` at the first call if lazy).

        Args:
            x: input of shape ``(batch, ...)``; the axes after the first
                ``n_batch_axes`` are flattened into the input size.
            n_batch_axes: the number of leading batch axes.
        """
        if self.W.array is None:
            shape = x.shape[n_batch_axes:]
            self._initialize_params(int(numpy.prod(shape, dtype=numpy.int64)))
        return functions.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)
