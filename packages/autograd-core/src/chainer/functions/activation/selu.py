"""Scaled exponential linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.activation.elu import elu
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def selu(x: VariableOrArray, alpha: float = 1.6732632423543772,
         scale: float = 1.0507009873554805) -> Variable:
    """Scaled ELU: ``scale * elu(x, alpha)`` (self-normalizing networks).

    Args:
        x: input variable or array of a float dtype.
        alpha: the ELU parameter.
        scale: the output scale.

    Returns:
        A variable of the shape and dtype of ``x``.
    """
    return elu(x, alpha) * scale
