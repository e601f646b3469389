"""Broadcasting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_noted
from chainer.functions.array._util import as_int_tuple, expect_inputs
from chainer.functions.math import sum as _sum_mod  # each is the other's backward
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


def expect_broadcast_to(x_type: type_check.Expr, shape: tuple[int, ...]) -> None:
    """v7's type check of BroadcastTo: ``x.ndim <= len(shape)``, then each axis from
    the last, in v7's words (``in_type[0]``, as it wrote them); the project's own
    explanation is an exception note."""

    x_shape = type_check.eval(x_type.shape)

    def note() -> str:
        return f'cannot broadcast an array of shape {x_shape} to shape {shape}'

    expect_noted(note, x_type.ndim <= type_check.make_variable(len(shape), 'len(shape)'))
    for i in range(-1, -len(x_shape) - 1, -1):
        if x_shape[i] == shape[i] or x_shape[i] == 1:
            continue
        expect = f'in_type[0].shape[{i}] == {shape[i]}'
        if shape[i] != 1:
            expect += f' or in_type[0].shape[{i}] == 1'
        err = type_check.InvalidType(expect, f'in_type[0].shape: {x_shape}')
        if not type_check.in_light_mode():
            err.add_note(note())
        raise err


class BroadcastTo(FunctionNode):
    """Broadcast an array to ``shape`` (a read-only view)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self._shape = tuple(shape)

    @property
    def label(self) -> str:
        return 'BroadcastTo'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        expect_broadcast_to(in_types[0], self._shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        try:
            return xp.broadcast_to(x, self._shape),
        except ValueError:
            raise ValueError(f'cannot broadcast an array of shape {x.shape} to shape '
                             f'{self._shape}') from None

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        return _sum_mod.sum_to(gy, self._in_shape),


@guarded
def broadcast_to(x: VariableOrArray, shape: ShapeSpec) -> Variable:
    """Broadcast ``x`` to ``shape`` (a read-only view; the gradient is summed back).

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` does not broadcast to ``shape``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([1, 2, 3], np.float32)
        >>> y = F.broadcast_to(x, (2, 3))
        >>> print(y.array)
        [[1. 2. 3.]
         [1. 2. 3.]]
    """
    shape = as_int_tuple(shape, 'shape')
    if getattr(x, 'shape', None) == shape and hasattr(x, 'dtype'):
        return as_variable(x)  # nothing to do: the input itself (an array gets wrapped)
    return BroadcastTo(shape).apply((x,))[0]


class Broadcast(FunctionNode):
    """Broadcast several arrays against each other."""

    @property
    def label(self) -> str:
        return 'Broadcast'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_inputs(in_types, 'broadcast needs at least one input')
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self._shapes = [x.shape for x in inputs]
        xp = backend.get_array_module(*inputs)
        return tuple(xp.broadcast_arrays(*inputs))

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        ret = []
        for i in indexes:
            gy = grad_outputs[i]
            ret.append(None if gy is None else _sum_mod.sum_to(gy, self._shapes[i]))
        return tuple(ret)


@guarded
def broadcast(*args: VariableOrArray) -> Variable | tuple[Variable, ...]:
    """Broadcast the given variables against each other.

    Args:
        *args: variables or arrays whose shapes broadcast together.

    Returns:
        A tuple of broadcast variables, or a single variable for a single input.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes do not broadcast.
    """
    if len(args) == 1:
        return as_variable(args[0])
    return Broadcast().apply(args)
