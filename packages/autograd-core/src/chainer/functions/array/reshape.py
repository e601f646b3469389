"""Reshape."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import check_shape, v7_type_error
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


class _ReshapeSizeError(type_check.InvalidType, ValueError):
    """A size mismatch: InvalidType as Chainer 7's type check, ValueError as NumPy's."""


def expect_reshape(x_type: type_check.Expr, shape: Sequence[int]) -> None:
    """v7's type check of Reshape: ``prod(x.shape) == prod(shape)``, or with an
    unknown (-1) entry, ``prod(x.shape) % known_size(=N) == 0`` (N the product of the
    positive entries). ``shape`` is shown as given (v7's composed functions pass lists)."""
    if not any(s < 0 for s in shape):
        type_check.expect(type_check.prod(x_type.shape) == type_check.prod(shape))
        return
    known = 1
    for s in shape:
        if s > 0:
            known *= s
    size = type_check.make_variable(known, f'known_size(={known})')
    type_check.expect(type_check.prod(x_type.shape) % size == 0)


class Reshape(FunctionNode):
    """Reshape an array to ``shape`` (one entry may be -1)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        self._in_shape = x.shape
        try:
            return x.reshape(self.shape),
        except ValueError:
            note = (f'cannot reshape an array of shape {x.shape} (size {x.size}) '
                    f'into shape {self.shape}')
            err = v7_type_error('Reshape', ('x',), (x,),
                                lambda t: expect_reshape(t, self.shape),
                                cls=_ReshapeSizeError, note=note)
            if err is None:  # v7's check passes (a zero in the shape): the note alone
                err = _ReshapeSizeError(f'prod(x.shape) == prod({self.shape})',
                                        f'{x.size} elements', note)
                err._context = 'Reshape'
            raise err from None

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return reshape(gy, self._in_shape),

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = grad_outputs
        return gy if gy.shape == self._in_shape else gy.reshape(self._in_shape),


@guarded
def reshape(x: VariableOrArray, shape: ShapeSpec) -> Variable:
    """Reshape ``x`` to ``shape`` without copying data.

    Args:
        x: input variable or array.
        shape: the new shape (may contain one -1).

    Returns:
        The reshaped variable.

    Raises:
        chainer.utils.type_check.InvalidType: when the sizes do not match (also a
            ValueError).

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.arange(6, dtype=np.float32)
        >>> y = F.reshape(x, (2, -1))
        >>> y.shape
        (2, 3)
        >>> print(y.array)
        [[0. 1. 2.]
         [3. 4. 5.]]
    """
    shape = check_shape(shape, 'shape', unknown=True)
    if getattr(x, 'shape', None) == shape and hasattr(x, 'dtype'):
        return as_variable(x)  # nothing to do: the input itself (an array gets wrapped)
    return Reshape(shape).apply((x,))[0]
