"""Huber loss."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._util import check_reduce
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class HuberLoss(FunctionNode):
    """Huber loss of ``x - t``, summed along axis 1 or elementwise."""

    _type_check_cache_attrs = ('reduce',)

    def __init__(self, delta: float, reduce: str = 'sum_along_second_axis') -> None:
        self.delta = delta
        self.reduce = reduce

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f',
                          x_type.dtype == t_type.dtype,
                          x_type.shape == t_type.shape)
        if self.reduce == 'sum_along_second_axis':
            type_check.expect(x_type.ndim >= 2)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        delta = x.dtype.type(self.delta)
        diff = x - t
        a = abs(diff)
        half = x.dtype.type(0.5)
        loss = xp.where(a <= delta, half * diff * diff, delta * (a - half * delta))
        if self.reduce == 'sum_along_second_axis':
            loss = loss.sum(axis=1)
        return utils.force_array(loss, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, t = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        xp = backend.get_array_module(x.array)
        diff = x - t
        d = diff.array
        inside = abs(d) <= self.delta
        # clip(diff, -delta, delta): linear inside the band, constant outside
        g = diff * inside.astype(d.dtype) + xp.where(
            inside, 0, self.delta * xp.sign(d)).astype(d.dtype)
        if self.reduce == 'sum_along_second_axis':
            gy = broadcast_to(reshape(gy, gy.shape[:1] + (1,) + gy.shape[1:]), d.shape)
        gx = gy * g
        return tuple(gx if i == 0 else -gx for i in indexes)


@guarded
def huber_loss(x: VariableOrArray, t: VariableOrArray, delta: float,
               reduce: str = 'sum_along_second_axis') -> Variable:
    """Huber loss: quadratic near zero, linear for large errors.

    With ``a = x - t``, the elementwise loss is ``a ** 2 / 2`` where
    ``|a| <= delta`` and ``delta * (|a| - delta / 2)`` elsewhere.

    Args:
        x: predictions, a float variable of shape (N, K, ...).
        t: targets of the shape and dtype of ``x``.
        delta: the threshold between the quadratic and the linear part.
        reduce: ``'sum_along_second_axis'`` (sum over axis 1, giving shape
            (N, ...)) or ``'no'`` (elementwise losses).

    Returns:
        A variable of the loss values.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for mismatched inputs.
    """
    check_reduce(reduce, ('sum_along_second_axis', 'no'))
    return HuberLoss(delta, reduce).apply((x, t))[0]
