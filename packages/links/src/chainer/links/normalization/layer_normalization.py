"""LayerNormalization: normalization over the features of each sample."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

from chainer import functions, initializers
from chainer.link import Link
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class LayerNormalization(Link):
    """Layer normalization layer (Ba et al., 2016).

    See :func:`chainer.functions.layer_normalization`: each sample ``x[i]``
    is normalized over its features, then scaled by ``gamma`` and shifted by
    ``beta`` (vectors of ``size`` elements).

    Args:
        size: the number of features, or None to read it off the first input
            (``x.size // len(x)``).
        eps: added to the variance.
        initial_gamma: initializer of ``gamma`` (ones by default).
        initial_beta: initializer of ``beta`` (zeros by default).

    Raises:
        TypeError: when an initializer is not an initializer-like.
    """

    def __init__(self, size: int | None = None, eps: float = 1e-6,
                 initial_gamma: InitializerSpec | None = None,
                 initial_beta: InitializerSpec | None = None) -> None:
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma = Parameter(initializers._get_initializer(
                1 if initial_gamma is None else initial_gamma))
            self.beta = Parameter(initializers._get_initializer(
                0 if initial_beta is None else initial_beta))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size: int) -> None:
        self.gamma.initialize(size)
        self.beta.initialize(size)

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """The size and eps."""
        yield 'size', None if self.gamma.array is None else self.gamma.shape[0]
        yield 'eps', self.eps

    def forward(self, x: VariableOrArray) -> Variable:
        """Normalize each row of ``x`` (of shape ``(N, size)``).

        Raises:
            chainer.utils.type_check.InvalidType: when ``x`` does not fit the
                parameters.
        """
        if self.gamma.array is None:
            self._initialize_params(int(numpy.prod(x.shape[1:], dtype=numpy.int64)))
        return functions.layer_normalization(x, self.gamma, self.beta, self.eps)

