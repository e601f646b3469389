"""Casting to another dtype."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, GradInputs, GradOutputs, NdArray, VariableOrArray


class Cast(FunctionNode):
    """Cast an array to ``typ``; its gradient is cast back to the input dtype."""

    def __init__(self, typ: DTypeSpec) -> None:
        self.type = numpy.dtype(typ)

    @property
    def label(self) -> str:
        return 'Cast'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_type = x.dtype
        return x.astype(self.type, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if gy.dtype == self._in_type:
            return gy,
        return cast(gy, self._in_type),


@guarded
def cast(x: VariableOrArray, typ: DTypeSpec) -> Variable:
    """Cast ``x`` to the dtype ``typ``.

    Args:
        x: input variable or array.
        typ: a dtype or dtype specifier (e.g. ``numpy.float16``, ``'f'``).

    Returns:
        The variable of dtype ``typ``; the gradient flows back cast to the
        dtype of ``x``. When the dtype is already ``typ`` and backprop is off,
        ``x`` is returned (as a variable) without a new node.
    """
    typ = numpy.dtype(typ)
    if (x.dtype == typ) and not config.enable_backprop:
        return as_variable(x)
    return Cast(typ).apply((x,))[0]
