"""Maximum and minimum over axes, and the indexes where they are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import (
    AxisFunction,
    broadcast_grad,
    check_axis_arg,
    expand_reduced,
    mask_grad,
    nondifferentiable,
)
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _check_nonempty(fn: str, x: Any, axes: tuple[int, ...]) -> None:
    if any(x.shape[a] == 0 for a in axes):
        raise ValueError(f'{fn} of an empty axis of an array of shape {x.shape}: '
                         'the result is undefined')


class _SelectorReduction(AxisFunction):
    _fn = ''

    def __init__(self, axis: Any = None, keepdims: bool = False) -> None:
        self.axis = check_axis_arg(axis)
        self.keepdims = keepdims

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        _check_nonempty(self._fn, x, axes)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        fn = getattr(backend.get_array_module(x), self._fn)
        return utils.force_array(fn(x, axis=axes, keepdims=self.keepdims)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0].array
        y = self.output_data[0]
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        mask = x == expand_reduced(y, x.shape, axes, self.keepdims)
        gy = expand_reduced(grad_outputs[0], x.shape, axes, self.keepdims)
        return mask_grad(broadcast_grad(gy, x.shape), mask),


class Max(_SelectorReduction):
    """Maximum over ``axis``; the gradient flows to every element equal to it."""

    _name = 'Max'
    _fn = 'amax'


class Min(_SelectorReduction):
    """Minimum over ``axis``; the gradient flows to every element equal to it."""

    _name = 'Min'
    _fn = 'amin'


class _IndexSelector(AxisFunction):
    _fn = ''

    def __init__(self, axis: Any = None) -> None:
        self.axis = check_axis_arg(axis, allow_tuple=False)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        _check_nonempty(self._fn, x, tuple(range(x.ndim)) if self.axis is None else (self.axis,))
        xp = backend.get_array_module(x)
        y = getattr(xp, self._fn)(x, axis=self.axis)
        return utils.force_array(y, numpy.int32),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return None,


class ArgMax(_IndexSelector):
    """Index of the maximum over ``axis`` (int32, not differentiable)."""

    _name = 'ArgMax'
    _argnames = None  # v7 left the input unnamed
    _fn = 'argmax'


class ArgMin(_IndexSelector):
    """Index of the minimum over ``axis`` (int32, not differentiable)."""

    _name = 'ArgMin'
    _argnames = None  # v7 left the input unnamed
    _fn = 'argmin'


@guarded
def max(x: VariableOrArray, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Variable:
    """Maximum of the elements of ``x`` over ``axis``.

    The gradient goes to every element equal to the maximum (all of the ties).

    Args:
        x: input variable of a float dtype.
        axis: None (all axes), an int or a tuple of ints.
        keepdims: keep the reduced axes with length one.

    Returns:
        The reduced variable.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
        ValueError: when a reduced axis is empty.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[1, 5, 3], [4, 2, 6]], np.float32)
        >>> F.max(x).array
        array(6., dtype=float32)
        >>> print(F.max(x, axis=0).array)
        [4. 5. 6.]
    """
    return Max(axis, keepdims).apply((x,))[0]


@guarded
def min(x: VariableOrArray, axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False) -> Variable:
    """Minimum of the elements of ``x`` over ``axis``.

    The gradient goes to every element equal to the minimum (all of the ties).

    Args:
        x: input variable of a float dtype.
        axis: None (all axes), an int or a tuple of ints.
        keepdims: keep the reduced axes with length one.

    Returns:
        The reduced variable.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-float input or an axis out of range.
        ValueError: when a reduced axis is empty.
    """
    return Min(axis, keepdims).apply((x,))[0]


@guarded
def argmax(x: VariableOrArray, axis: int | None = None) -> Variable:
    """Index of the maximum of ``x`` (over the flattened array when ``axis`` is None).

    Args:
        x: input variable of a float dtype.
        axis: None or an int.

    Returns:
        An int32 variable without gradient.
    """
    return nondifferentiable(ArgMax(axis), x)


@guarded
def argmin(x: VariableOrArray, axis: int | None = None) -> Variable:
    """Index of the minimum of ``x`` (over the flattened array when ``axis`` is None).

    Args:
        x: input variable of a float dtype.
        axis: None or an int.

    Returns:
        An int32 variable without gradient.
    """
    return nondifferentiable(ArgMin(axis), x)


#: v7's base class of the reductions that select an element (max, min).
SelectorBase = _SelectorReduction
#: v7's base class of the reductions that return an index (argmax, argmin).
IndexSelectorBase = _IndexSelector
