"""Broadcasting to a shape."""

from __future__ import annotations

from typing import Any

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable


class BroadcastTo(FunctionNode):
    """Broadcast an array to ``shape``."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self._shape = tuple(shape)

    def forward(self, inputs: Any) -> Any:
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        try:
            return xp.broadcast_to(x, self._shape),
        except ValueError:
            raise ValueError(f'cannot broadcast an array of shape {x.shape} to shape '
                             f'{self._shape}') from None

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.math.sum import sum_to

        return sum_to(grad_outputs[0], self._in_shape),


def broadcast_to(x: Any, shape: Any) -> Variable:
    """Broadcast ``x`` to ``shape`` (a read-only view)."""
    shape = tuple(shape)
    if isinstance(x, Variable) and x.shape == shape:
        return x
    return BroadcastTo(shape).apply((x,))[0]
