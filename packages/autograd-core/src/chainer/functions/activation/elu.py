"""Exponential linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float, retained_inputs
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ELU(FunctionNode):
    """``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` for ``x <= 0``."""

    _type_check_cache_attrs = ()

    def __init__(self, alpha: float = 1.0) -> None:
        self.alpha = float(alpha)

    @property
    def label(self) -> str:
        return 'ELU'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        neg = x.dtype.type(self.alpha) * xp.expm1(xp.minimum(x, 0))
        return utils.force_array(xp.where(x > 0, x, neg), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        return _ELUGrad(self.alpha).apply((x, grad_outputs[0]))


class _ELUGrad(FunctionNode):
    """``gy * (1 if x > 0 else alpha * exp(x))`` as a function of ``(x, gy)``."""

    def __init__(self, alpha: float) -> None:
        self.alpha = alpha

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        d = x.dtype.type(self.alpha) * xp.exp(xp.minimum(x, 0))
        return utils.force_array(xp.where(x > 0, gy, gy * d), gy.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, gy = retained_inputs(self)
        g, = grad_outputs
        assert g is not None
        ret = []
        for i in indexes:
            if i == 0:
                # d/dx of gy * alpha * exp(x) on the negative side only.
                ggy = g * gy
                full = _ELUGrad(self.alpha).apply((x, ggy))[0]
                ret.append(full - ggy * (x.array > 0).astype(x.dtype))
            else:
                ret.append(_ELUGrad(self.alpha).apply((x, g))[0])
        return tuple(ret)


@guarded
def elu(x: VariableOrArray, alpha: float = 1.0) -> Variable:
    """Exponential linear unit: ``x`` if ``x > 0`` else ``alpha * (exp(x) - 1)``.

    At ``x == 0`` the gradient is ``alpha`` (the negative side), as in Chainer 7.

    Args:
        x: input variable or array of a float dtype.
        alpha: the scale of the negative part.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([-1., 0., 2.], np.float32)
        >>> print(F.elu(x, alpha=1.0).array)
        [-0.63212055  0.          2.        ]
    """
    return ELU(alpha).apply((x,))[0]


#: v7's name of the ELU gradient node: ``ELUGrad(alpha).apply((x, gy))`` gives ``gx``.
ELUGrad = _ELUGrad
