"""PReLU: the parametric ReLU."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Link
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, ShapeSpec, VariableOrArray
    from chainer.variable import Variable


class PReLU(Link):
    """Parametric ReLU: ``max(x, 0) + W min(x, 0)`` with a learned slope ``W``.

    See :func:`chainer.functions.prelu`.

    Args:
        shape: the shape of ``W``, aligned with the input's axes after the batch
            axis (``()`` for one slope shared by all).
        init: the initial slope (a scalar, an array or an initializer).
    """

    def __init__(self, shape: ShapeSpec = (), init: InitializerSpec | None = 0.25) -> None:
        super().__init__()
        with self.init_scope():
            self.W = Parameter(init, shape)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the activation to ``x``."""
        return functions.prelu(x, self.W)
