"""Scale: multiplies by a learned (or given) factor broadcast along an axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions
from chainer.link import Chain
from chainer.links import _util
from chainer.links.connection.bias import Bias
from chainer.variable import Parameter, Variable

if TYPE_CHECKING:
    from chainer.types import ShapeSpec, VariableOrArray



class Scale(Chain):
    """Broadcasted elementwise product with a factor, plus an optional bias (see
    :func:`chainer.functions.scale`).

    With ``W_shape``, the factor is the parameter ``W`` (one at first) and the
    link takes one input; without, it takes the input and the factor. With
    ``bias_term``, a :class:`~chainer.links.Bias` child ``bias`` is added after.

    Args:
        axis: the first axis of the input the factor is aligned with.
        W_shape: the shape of the learned factor, or None to take it as an input.
        bias_term: whether to add a learned bias.
        bias_shape: the shape of the bias when ``W_shape`` is None.

    Raises:
        ValueError: when ``bias_term`` is set but neither ``W_shape`` nor
            ``bias_shape`` gives the bias's shape.
    """

    def __init__(self, axis: int = 1, W_shape: ShapeSpec | None = None, bias_term: bool = False,
                 bias_shape: ShapeSpec | None = None) -> None:
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = Parameter(1, W_shape)
            if bias_term:
                if W_shape is not None:
                    bias_shape = W_shape
                elif bias_shape is None:
                    raise ValueError('bias_shape must be given when W is not learned '
                                     '(W_shape is None) and bias_term is True')
                self.bias = Bias(axis, bias_shape)

    def forward(self, *xs: VariableOrArray) -> Variable:
        """``x * W (+ b)``: call with ``(x)`` if ``W`` is learned, else ``(x, W)``.

        Raises:
            ArgumentCountError: (a ``TypeError``, and an ``AssertionError`` as in v7)
                for the wrong number of inputs.
        """
        y = functions.scale(*_util.inputs_with_parameter(self, 'W', xs), axis=self.axis)
        if 'bias' in self._children:
            y = self.bias(y)
        return y
