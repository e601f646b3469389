"""Depth to space (subpixel rearrangement)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.functions.array import space2depth as _space2depth  # each is the other's backward
from chainer.functions.array._util import as_int
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _check_r(r: Any) -> int:
    r = as_int(r, 'r')
    if r <= 0:
        raise ValueError(f'r must be positive, not {r}')
    return r


class Depth2Space(FunctionNode):
    """``(B, r*r*C, H, W) -> (B, C, r*H, r*W)``."""

    def __init__(self, r: int) -> None:
        self.r = _check_r(r)

    @property
    def label(self) -> str:
        return 'Depth2Space'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('x',))  # as v7 names it
        x = in_types[0]
        type_check.expect(x.ndim == 4)
        type_check.expect(x.shape[1] % (self.r * self.r) == 0)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        r = self.r
        b, c, h, w = x.shape
        c //= r * r
        y = x.reshape(b, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(b, c, h * r, w * r),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return _space2depth.space2depth(gy, self.r),


@guarded
def depth2space(X: VariableOrArray, r: int) -> Variable:
    """Rearrange channels into space, for subpixel convolution.

    The channel ``(i * r + j) * C + c`` of each input pixel ``(h, w)`` goes to
    the output pixel ``(h * r + i, w * r + j)`` of channel ``c``.

    Args:
        X: variable of shape ``(B, r * r * C, H, W)``.
        r: the upscaling factor.

    Returns:
        A variable of shape ``(B, C, r * H, r * W)``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``X`` is not 4-D float or
            its channels are not a multiple of ``r * r``.
    """
    return Depth2Space(r).apply((X,))[0]
