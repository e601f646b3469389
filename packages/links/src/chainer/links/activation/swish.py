"""Swish: ``x * sigmoid(beta * x)`` with a learned ``beta``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Link
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class Swish(Link):
    """Swish activation with a learned ``beta`` (see :func:`chainer.functions.swish`).

    Args:
        beta_shape: the shape of ``beta``, aligned with the input's axes after the
            batch axis; None for the shape of one sample (``x.shape[1:]``, read
            off the first input).
        beta_init: the initial value of ``beta`` (1 by default).
    """

    def __init__(self, beta_shape: ShapeSpec | None,
                 beta_init: InitializerSpec | None = 1.0) -> None:
        super().__init__()
        with self.init_scope():
            self.beta = Parameter(beta_init, beta_shape)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the activation to ``x``."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return functions.swish(x, self.beta)
