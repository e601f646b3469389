"""Maximum and minimum over axes, and the indexes where they are."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import (
    broadcast_grad,
    check_axis_arg,
    expand_reduced,
    expand_reduced_array,
    expect_axis,
    expect_float,
    mask_grad,
    nondifferentiable,
)
from chainer.variable import Variable


class _SelectorReduction(FunctionNode):
    _fn = ''

    def __init__(self, axis: Any = None, keepdims: bool = False) -> None:
        self.axis = check_axis_arg(axis)
        self.keepdims = keepdims

    @property
    def label(self) -> str:
        return self._fn.capitalize()

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)
        expect_axis(in_types[0], self.axis)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        if any(x.shape[a] == 0 for a in axes):
            raise ValueError(f'{self._fn} of an empty axis of an array of shape {x.shape}: '
                             'the result is undefined')
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        fn = getattr(backend.get_array_module(x), self._fn)
        return utils.force_array(fn(x, axis=axes, keepdims=self.keepdims)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x = self.get_retained_inputs()[0].array
        y = self.output_data[0]
        axes = utils.normalize_axis_tuple(self.axis, x.ndim)
        mask = x == expand_reduced_array(y, x.shape, axes, self.keepdims)
        gy = expand_reduced(grad_outputs[0], x.shape, axes, self.keepdims)
        return mask_grad(broadcast_grad(gy, x.shape), mask),


class Max(_SelectorReduction):
    """Maximum over ``axis``; the gradient flows to every element equal to it."""

    _fn = 'amax'

    @property
    def label(self) -> str:
        return 'Max'


class Min(_SelectorReduction):
    """Minimum over ``axis``; the gradient flows to every element equal to it."""

    _fn = 'amin'

    @property
    def label(self) -> str:
        return 'Min'


class _IndexSelector(FunctionNode):
    _fn = ''

    def __init__(self, axis: Any = None) -> None:
        self.axis = check_axis_arg(axis, allow_tuple=False)

    @property
    def label(self) -> str:
        return self._fn.capitalize()

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)
        expect_axis(in_types[0], self.axis)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        if x.shape[self.axis] == 0 if self.axis is not None else x.size == 0:
            raise ValueError(f'{self._fn} of an empty axis of an array of shape {x.shape}: '
                             'the result is undefined')
        xp = backend.get_array_module(x)
        y = getattr(xp, self._fn)(x, axis=self.axis)
        return utils.force_array(y, numpy.int32),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return None,


class ArgMax(_IndexSelector):
    """Index of the maximum over ``axis`` (int32, not differentiable)."""

    _fn = 'argmax'

    @property
    def label(self) -> str:
        return 'ArgMax'


class ArgMin(_IndexSelector):
    """Index of the minimum over ``axis`` (int32, not differentiable)."""

    _fn = 'argmin'

    @property
    def label(self) -> str:
        return 'ArgMin'


def max(x: Any, axis: Any = None, keepdims: bool = False) -> Variable:
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
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x: Any, axis: Any = None, keepdims: bool = False) -> Variable:
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


def argmax(x: Any, axis: Any = None) -> Variable:
    """Index of the maximum of ``x`` (over the flattened array when ``axis`` is None).

    Args:
        x: input variable of a float dtype.
        axis: None or an int.

    Returns:
        An int32 variable without gradient.
    """
    return nondifferentiable(ArgMax(axis), x)


def argmin(x: Any, axis: Any = None) -> Variable:
    """Index of the minimum of ``x`` (over the flattened array when ``axis`` is None).

    Args:
        x: input variable of a float dtype.
        axis: None or an int.

    Returns:
        An int32 variable without gradient.
    """
    return nondifferentiable(ArgMin(axis), x)
