"""Elementwise floating-point remainder."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._elementwise import BinaryFloat
from chainer.functions.math._util import sum_grad
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray, Xp


class Fmod(BinaryFloat):
    """Elementwise ``x - fix(x / divisor) * divisor`` (the sign of ``x``), with broadcasting."""

    _name = 'fmod'
    _argnames = ('x', 'divisor')

    def compute(self, xp: Xp, x: NdArray, divisor: NdArray) -> NdArray:
        return utils.force_array(xp.fmod(x, divisor), x.dtype)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, divisor = retained_inputs(self)
        gy, = grad_outputs
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_grad(gy, x.shape))
            else:
                xp = backend.get_array_module(x.array)
                q = utils.force_array(xp.fix(x.array / divisor.array), x.dtype)
                ret.append(sum_grad(gy * -q, divisor.shape))
        return tuple(ret)


@guarded
def fmod(x: VariableOrArray, divisor: VariableOrArray) -> Variable:
    """Elementwise remainder of ``x / divisor`` with the sign of ``x`` (C's ``fmod``).

    Args:
        x: dividend (float variable).
        divisor: divisor, of the same dtype and a shape broadcasting with ``x``.

    Returns:
        A variable of the broadcast shape.

    Raises:
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    return Fmod().apply((x, divisor))[0]
