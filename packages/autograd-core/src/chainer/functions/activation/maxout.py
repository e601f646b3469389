"""Maxout: the maximum over groups of units."""

from __future__ import annotations

from typing import Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._util import expect_float
from chainer.variable import Variable


class _MaxAlongAxis(FunctionNode):
    """The maximum over ``axis``; the gradient goes to the first maximal entry."""

    _type_check_cache_attrs = ()

    def __init__(self, axis: int) -> None:
        self.axis = axis

    @property
    def label(self) -> str:
        return 'Maxout'

    def check_type_forward(self, in_types: Any) -> None:
        expect_float(in_types)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        xp = backend.get_array_module(x)
        self._n = x.shape[self.axis]
        idx = xp.expand_dims(x.argmax(axis=self.axis), self.axis)
        self._index = idx
        return utils.force_array(xp.take_along_axis(x, idx, axis=self.axis).squeeze(self.axis)),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return _Scatter(self._index, self.axis, self._n).apply(grad_outputs)


class _Scatter(FunctionNode):
    """Place ``g`` at the selected ``index`` along ``axis``, zeros elsewhere."""

    def __init__(self, index: Any, axis: int, n: int) -> None:
        self.index = index
        self.axis = axis
        self.n = n

    def forward(self, inputs: Any) -> Any:
        g, = inputs
        xp = backend.get_array_module(g)
        shape = [1] * (g.ndim + 1)
        shape[self.axis] = self.n
        positions = xp.arange(self.n).reshape(shape)
        onehot = positions == self.index
        return utils.force_array(xp.expand_dims(g, self.axis) * onehot, g.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return _Gather(self.index, self.axis).apply(grad_outputs)


class _Gather(FunctionNode):
    """Take the entries at ``index`` along ``axis`` (the adjoint of :class:`_Scatter`)."""

    def __init__(self, index: Any, axis: int) -> None:
        self.index = index
        self.axis = axis

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        xp = backend.get_array_module(x)
        self._n = x.shape[self.axis]
        y = xp.take_along_axis(x, self.index, axis=self.axis).squeeze(self.axis)
        return utils.force_array(y),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return _Scatter(self.index, self.axis, self._n).apply(grad_outputs)


def maxout(x: Any, pool_size: int, axis: int = 1) -> Variable:
    """Maxout: split ``axis`` (of length ``M * pool_size``) into ``(M, pool_size)``
    and take the maximum over each group of ``pool_size`` units.

    Args:
        x: input of a float dtype; typically the output of a linear layer.
        pool_size: the number of units per group (positive).
        axis: the axis holding the units.

    Returns:
        A variable shaped like ``x`` except that ``axis`` has length ``M``.

    Raises:
        ValueError: when ``pool_size`` is not positive, or does not divide the
            length of ``axis``.
    """
    from chainer.functions.array.reshape import reshape

    if isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size <= 0:
        raise ValueError(f'pool_size must be a positive integer, got {pool_size!r}')
    shape = x.shape
    ndim = len(shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f'axis {axis} is out of bounds for an input of ndim {ndim}')
    axis %= ndim
    if shape[axis] % pool_size != 0:
        raise ValueError(f'the length of axis {axis} ({shape[axis]}) must be divisible by '
                         f'pool_size ({pool_size})')
    grouped = shape[:axis] + (shape[axis] // pool_size, pool_size) + shape[axis + 1:]
    return _MaxAlongAxis(axis + 1).apply((reshape(x, grouped),))[0]
