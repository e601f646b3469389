"""ReLU6: the rectifier clipped at 6."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.activation.clipped_relu import clipped_relu
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def relu6(x: VariableOrArray) -> Variable:
    """Rectified linear unit clipped at 6: ``min(max(0, x), 6)``.

    Args:
        x: input variable or array of a float dtype.

    Returns:
        A variable of the shape and dtype of ``x``.
    """
    return clipped_relu(x, 6.0)
