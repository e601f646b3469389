"""Private building blocks shared by the loss functions.

``reduce`` validation, sums scaled without float16 overflow, a stable
log-softmax on arrays and a square root whose gradient stays finite at zero;
``check_types`` (type_check for losses written as compositions) and
``as_array`` are the shared helpers, imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._util import check_types as check_types
from chainer.functions._util import retained_outputs, sum_keepdims
from chainer.functions.array.cast import cast
from chainer.functions.math.sum import sum as sum_
from chainer.variable import Variable
from chainer.variable import as_array as as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray


def check_reduce(reduce: str, allowed: Sequence[str]) -> None:
    """Raise ValueError unless ``reduce`` is one of ``allowed``."""
    if reduce not in allowed:
        choices = ', '.join(repr(a) for a in allowed)
        raise ValueError(f'only {choices} are valid for reduce, but {reduce!r} is given')


def scaled_sum(a: Any, coeff: Any, dtype: Any) -> Any:
    """``a.sum() * coeff`` as a 0-dim array of ``dtype``.

    The sum runs in float32 at least, so that a float16 loss summed over a
    large batch does not overflow before it is scaled.
    """
    total = a.sum(dtype=numpy.promote_types(a.dtype, numpy.float32))
    return utils.force_array(total * coeff, dtype)


def scaled_sum_variable(x: Variable, coeff: float) -> Variable:
    """Differentiable ``sum(x) * coeff``, summed in float32 when ``x`` is float16."""
    if x.dtype == numpy.float16:
        return cast(sum_(cast(x, numpy.float32)) * coeff, numpy.float16)
    return sum_(x) * coeff


def log_softmax_array(x: Any, axis: int = 1) -> Any:
    """``x - logsumexp(x, axis)`` on arrays, shifted by the maximum (stable)."""
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    shifted = x - m
    return shifted - xp.log(sum_keepdims(xp.exp(shifted), axis))


class SafeSqrt(FunctionNode):
    """``sqrt(x)`` for ``x >= 0`` whose gradient is 0 (not inf) at ``x == 0``."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).sqrt(x), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y, = retained_outputs(self)
        zero = (y.array == 0).astype(y.dtype)
        # 0.5 / y where y > 0, and 0 where y == 0 (y + zero never vanishes)
        return grad_outputs[0] * (1 - zero) * 0.5 / (y + zero),


def safe_sqrt(x: Any) -> Variable:
    """Differentiable square root with a zero gradient at zero."""
    return SafeSqrt().apply((x,))[0]
