"""Clipping to an interval."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import expect_float, mask_grad
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


def _check_bound(v: Any, name: str) -> Any:
    if v is None:
        return None
    if isinstance(v, Variable):
        raise TypeError(f'{name} must be a scalar or an array constant, not a Variable')
    if numpy.isscalar(v) and not isinstance(v, (str, bytes)):
        return v
    if hasattr(v, 'dtype') and hasattr(v, 'shape'):
        return v
    raise TypeError(f'{name} must be a scalar, an array or None, not {type(v).__name__}')


class Clip(FunctionNode):
    """Clip ``x`` elementwise into ``[x_min, x_max]``."""

    def __init__(self, x_min: float | NdArray | None, x_max: float | NdArray | None) -> None:
        x_min = _check_bound(x_min, 'x_min')
        x_max = _check_bound(x_max, 'x_max')
        if x_min is None and x_max is None:
            raise ValueError('clip needs at least one of x_min and x_max')
        scalars = numpy.isscalar(x_min) and numpy.isscalar(x_max)  # (bool: no narrowing)
        if scalars and x_min > x_max:
            raise ValueError(f'x_min ({x_min}) must not be greater than x_max ({x_max})')
        self.x_min = x_min
        self.x_max = x_max

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        y = x
        if self.x_min is not None:
            y = xp.maximum(y, xp.asarray(self.x_min, dtype=x.dtype))
        if self.x_max is not None:
            y = xp.minimum(y, xp.asarray(self.x_max, dtype=x.dtype))
        if y.shape != x.shape:
            raise ValueError(f'the bounds of clip (x_min, x_max) must broadcast to the shape '
                             f'of x {x.shape}, giving {y.shape}')
        return utils.force_array(y, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0].array
        xp = backend.get_array_module(x)
        mask = xp.ones(x.shape, dtype=bool)
        if self.x_min is not None:
            mask &= x >= xp.asarray(self.x_min, dtype=x.dtype)
        if self.x_max is not None:
            mask &= x <= xp.asarray(self.x_max, dtype=x.dtype)
        return mask_grad(grad_outputs[0], mask),


@guarded
def clip(x: VariableOrArray, x_min: float | NdArray | None,
         x_max: float | NdArray | None) -> Variable:
    """Clip ``x`` elementwise into ``[x_min, x_max]``.

    The gradient is passed where ``x_min <= x <= x_max`` and is zero elsewhere.

    Args:
        x: input variable of a float dtype.
        x_min: lower bound (a scalar, an array broadcasting to ``x``, or None for none).
        x_max: upper bound (likewise).

    Returns:
        A variable of the same shape and dtype as ``x``.

    Raises:
        ValueError: when both bounds are None or ``x_min > x_max``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([-2., 0.5, 3.], np.float32)
        >>> print(F.clip(x, -1., 1.).array)
        [-1.   0.5  1. ]
    """
    return Clip(x_min, x_max).apply((x,))[0]


class ClipGrad(BackwardNode):
    """The gradient of :class:`Clip`: ``(x, gy)`` to ``gy`` where ``x_min < x < x_max``, else 0.

    A differentiable node of its own (double backpropagation goes through it).
    """

    n_in = 1

    def __init__(self, x_min: float | NdArray | None, x_max: float | NdArray | None) -> None:
        self.x_min = x_min
        self.x_max = x_max

    def primal(self) -> FunctionNode:
        return Clip(self.x_min, self.x_max)
