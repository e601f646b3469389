"""Tensor dot product over chosen axes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.transpose import transpose
from chainer.functions.math._util import cast_like
from chainer.utils import numeric_args, type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _inverse(perm: list[int]) -> tuple[int, ...]:
    return tuple(int(i) for i in numpy.argsort(perm))


class TensorDot(FunctionNode):
    """Sum of products over ``a_axes`` of ``a`` paired with ``b_axes`` of ``b``."""

    def __init__(self, a_axes: tuple[int, ...], b_axes: tuple[int, ...]) -> None:
        self.a_axes = a_axes
        self.b_axes = b_axes

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('a', 'b'))
        a, b = in_types
        type_check.expect(a.dtype.kind == 'f', b.dtype.kind == 'f')
        for i, j in zip(self.a_axes, self.b_axes):
            type_check.expect(a.shape[i] == b.shape[j])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a)
        y = xp.tensordot(a, b, (list(self.a_axes), list(self.b_axes)))
        return utils.force_array(y, numpy.result_type(a.dtype, b.dtype)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        a, b = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        a_free = [i for i in range(a.ndim) if i not in self.a_axes]
        b_free = [i for i in range(b.ndim) if i not in self.b_axes]
        na = len(a_free)
        pairs = list(zip(self.a_axes, self.b_axes))
        ret = []
        for i in indexes:
            if i == 0:
                g = TensorDot(tuple(range(na, gy.ndim)), tuple(b_free)).apply((gy, b))[0]
                order = a_free + [p[0] for p in sorted(pairs, key=lambda p: p[1])]
            else:
                g = TensorDot(tuple(a_free), tuple(range(na))).apply((a, gy))[0]
                order = [p[1] for p in sorted(pairs, key=lambda p: p[0])] + b_free
            inv = _inverse(order)
            if inv != tuple(range(len(inv))):
                g = transpose(g, inv)
            ret.append(cast_like(g, a if i == 0 else b))
        return tuple(ret)


def _norm_axes(axes: Any, ndim: int, name: str) -> tuple[int, ...]:
    if numeric_args.is_int(axes):
        axes = (numeric_args.as_int(axes),)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f'tensordot: axis {a} is out of range for {name} of {ndim} '
                             'dimensions')
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f'tensordot: repeated axis in {axes} for {name}')
    return tuple(out)


@guarded
def tensordot(a: VariableOrArray, b: VariableOrArray,
              axes: int | Sequence[int | Sequence[int]] = 2) -> Variable:
    """Sum of products of ``a`` and ``b`` over the given axes (``numpy.tensordot``).

    Args:
        a, b: float variables (of different dtypes, they multiply in the promoted one
            and each gradient has its operand's dtype).
        axes: an int ``n`` (the last ``n`` axes of ``a`` with the first ``n`` of ``b``)
            or a pair ``(a_axes, b_axes)`` of ints or sequences of ints.

    Returns:
        A variable with the free axes of ``a`` followed by those of ``b``.

    Raises:
        TypeError: when ``axes`` is neither an int nor a pair.
        ValueError: for malformed or out-of-range axes, or paired axes of different
            lengths.
        chainer.utils.type_check.InvalidType: for non-float inputs.
    """
    a = as_variable(a)
    b = as_variable(b)
    if numeric_args.is_int(axes):
        n = numeric_args.as_int(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError(f'tensordot: axes={n} does not fit operands of {a.ndim} and '
                             f'{b.ndim} dimensions')
        a_axes = tuple(range(a.ndim - n, a.ndim))
        b_axes = tuple(range(n))
    elif isinstance(axes, (tuple, list)):
        if len(axes) != 2:
            raise ValueError(f'tensordot: axes must be an int or a pair of axis lists, '
                             f'not {axes!r}')
        a_axes = _norm_axes(axes[0], a.ndim, 'a')
        b_axes = _norm_axes(axes[1], b.ndim, 'b')
        if len(a_axes) != len(b_axes):
            raise ValueError(f'tensordot: {len(a_axes)} axes of a cannot pair with '
                             f'{len(b_axes)} axes of b')
    else:
        raise TypeError(f'tensordot: axes must be an int or a pair of axis lists, not '
                        f'{type(axes).__name__}')
    for i, j in zip(a_axes, b_axes):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f'tensordot: axis {i} of a (length {a.shape[i]}) does not match '
                             f'axis {j} of b (length {b.shape[j]})')
    return TensorDot(a_axes, b_axes).apply((a, b))[0]
