"""Space to depth (the inverse of depth2space)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.functions.array import depth2space as _depth2space  # each is the other's backward
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Space2Depth(FunctionNode):
    """``(B, C, r*H, r*W) -> (B, r*r*C, H, W)``."""

    def __init__(self, r: int) -> None:
        self.r = _depth2space._check_r(r)

    @property
    def label(self) -> str:
        return 'Space2Depth'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('x',))  # as v7 names it
        x = in_types[0]
        type_check.expect(x.ndim == 4)
        type_check.expect(x.shape[2] % self.r == 0, x.shape[3] % self.r == 0)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        r = self.r
        b, c, h, w = x.shape
        h //= r
        w //= r
        y = x.reshape(b, c, h, r, w, r).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(b, r * r * c, h, w),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return _depth2space.depth2space(gy, self.r),


@guarded
def space2depth(X: VariableOrArray, r: int) -> Variable:
    """Rearrange ``r x r`` spatial blocks into channels (the inverse of depth2space).

    Args:
        X: variable of shape ``(B, C, r * H, r * W)``.
        r: the downscaling factor.

    Returns:
        A variable of shape ``(B, r * r * C, H, W)``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``X`` is not 4-D float or
            its height or width is not a multiple of ``r``.
    """
    return Space2Depth(r).apply((X,))[0]
