"""Leaky rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class LeakyReLU(FunctionNode):
    """``x`` where ``x > 0``, ``slope * x`` elsewhere."""

    _type_check_cache_attrs = ()

    def __init__(self, slope: float = 0.2) -> None:
        self.slope = slope

    @property
    def label(self) -> str:
        return 'LeakyReLU'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.where(x > 0, x, x * x.dtype.type(self.slope))),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0].array
        return _LeakyReLUGrad(x > 0, self.slope).apply(grad_outputs)


class _LeakyReLUGrad(FunctionNode):
    """``gy`` where the input was positive, ``slope * gy`` elsewhere (linear in gy)."""

    def __init__(self, positive: Any, slope: float) -> None:
        self.positive = positive
        self.slope = slope

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        xp = backend.get_array_module(gy)
        return utils.force_array(
            xp.where(self.positive, gy, gy * gy.dtype.type(self.slope))),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return _LeakyReLUGrad(self.positive, self.slope).apply(grad_outputs)


@guarded
def leaky_relu(x: VariableOrArray, slope: float = 0.2) -> Variable:
    """Leaky rectified linear unit: ``x`` if ``x > 0`` else ``slope * x``.

    At ``x == 0`` the gradient is ``slope`` (the negative side), as in Chainer 7.

    Args:
        x: input variable or array of a float dtype.
        slope: the slope for negative inputs.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([-2., -0.5, 0., 3.], np.float32)
        >>> print(F.leaky_relu(x, slope=0.1).array)
        [-0.2  -0.05  0.    3.  ]
    """
    return LeakyReLU(slope).apply((x,))[0]
