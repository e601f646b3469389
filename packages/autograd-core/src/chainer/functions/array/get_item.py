"""Indexing (basic and advanced)."""

from __future__ import annotations

from typing import Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def _is_advanced(slices: Any) -> bool:
    items = slices if isinstance(slices, tuple) else (slices,)
    return any(isinstance(s, (list,)) or hasattr(s, 'dtype') and getattr(s, 'ndim', 0) > 0
               for s in items)


def _normalize(slices: Any) -> Any:
    if isinstance(slices, list) and any(isinstance(s, (list, slice)) or s is None
                                        for s in slices):
        return tuple(slices)
    if isinstance(slices, Variable):
        return slices.array
    if isinstance(slices, tuple):
        return tuple(s.array if isinstance(s, Variable) else s for s in slices)
    return slices


class GetItem(FunctionNode):
    """``x[slices]`` with NumPy indexing semantics."""

    def __init__(self, slices: Any) -> None:
        self.slices = _normalize(slices)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        self._in_shape = x.shape
        self._dtype = x.dtype
        xp = backend.get_array_module(x)
        return xp.asarray(x[self.slices]),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return GetItemGrad(self.slices, self._in_shape).apply(grad_outputs)


class GetItemGrad(FunctionNode):
    """Scatter-add of a gradient into zeros of the input shape."""

    def __init__(self, slices: Any, in_shape: tuple[int, ...]) -> None:
        self.slices = slices
        self._in_shape = in_shape

    def forward(self, inputs: Any) -> Any:
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        if _is_advanced(self.slices):
            xp.add.at(gx, self.slices, gy)
        else:
            gx[self.slices] = gy
        return gx,

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return get_item(grad_outputs[0], self.slices),


def get_item(x: Any, slices: Any) -> Variable:
    """Index ``x`` like a NumPy array: ints, slices, None, Ellipsis, integer and
    boolean arrays.

    Returns:
        The selected part as a variable; its gradient is scattered back.
    """
    return GetItem(slices).apply((x,))[0]
