"""Hard (piecewise linear) sigmoid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs
from chainer.functions.math._util import MaskGrad
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class HardSigmoid(FunctionNode):
    """``clip(0.2 x + 0.5, 0, 1)`` elementwise."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'HardSigmoid'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        t = x.dtype.type
        return utils.force_array(xp.clip(x * t(0.2) + t(0.5), t(0), t(1)), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0].array
        g = MaskGrad((x > -2.5) & (x < 2.5)).apply(grad_outputs)[0]
        return g * 0.2,


@guarded
def hard_sigmoid(x: VariableOrArray) -> Variable:
    """Hard sigmoid: 0 for ``x < -2.5``, ``0.2 x + 0.5`` in between, 1 for ``x > 2.5``.

    Args:
        x: input variable or array of a float dtype.

    Returns:
        A variable of the shape and dtype of ``x``.
    """
    return HardSigmoid().apply((x,))[0]


class HardSigmoidGrad(MaskGrad):
    """The gradient of :class:`HardSigmoid`: ``0.2 gy`` where ``-2.5 < x < 2.5``, else 0.

    Applied to ``(gy,)``; linear in ``gy``, so its own gradient is itself.

    Args:
        x: the input array of the hard sigmoid.
    """

    def __init__(self, x: NdArray) -> None:
        slope = ((x > -2.5) & (x < 2.5)).astype(x.dtype) * x.dtype.type(0.2)
        super().__init__(slope)
        self.x = x

    @property
    def label(self) -> str:
        return 'HardSigmoidGrad'
