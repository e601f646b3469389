"""Bias: adds a learned (or given) bias broadcast along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Link
from chainer.links import _util
from chainer.variable import Parameter, Variable

if TYPE_CHECKING:
    from chainer.types import ShapeSpec, VariableOrArray



class Bias(Link):
    """Broadcasted elementwise sum with a bias (see :func:`chainer.functions.bias`).

    With ``shape``, the bias is the parameter ``b`` (zero at first) and the link
    takes one input; without, it takes the input and the bias.

    Args:
        axis: the first axis of the input the bias is aligned with.
        shape: the shape of the learned bias, or None to take it as an input.
    """

    def __init__(self, axis: int = 1, shape: ShapeSpec | None = None) -> None:
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs: VariableOrArray) -> Variable:
        """``x + b``: call with ``(x)`` if the bias is learned, else ``(x, b)``.

        Raises:
            ArgumentCountError: (a ``TypeError``, and an ``AssertionError`` as in v7)
                for the wrong number of inputs.
        """
        return functions.bias(*_util.inputs_with_parameter(self, 'b', xs), axis=self.axis)

