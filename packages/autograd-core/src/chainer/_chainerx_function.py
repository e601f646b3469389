"""FunctionNodes with their own ChainerX implementation, in Chainer's graph.

A :class:`~chainer.FunctionNode` that overrides ``forward_chainerx`` runs it when its
inputs are on a ChainerX device (v7's rule), unless it returns ``chainer.Fallback``. The
call becomes a :class:`ChainerxFunction` node of Chainer's graph: its forward is the
ChainerX routine on ChainerX arrays over the inputs' NumPy/CuPy arrays, its backward is
the ChainerX gradient of that routine, itself such a node; so gradients of any order
come from ChainerX's autograd while Chainer keeps the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import chainer
from chainer.function_node import FunctionNode

if TYPE_CHECKING:
    from chainer.backend import ChainerxDevice
    from chainer.types import GradInputs, GradOutputs, NdArray

ChxFn = Callable[[tuple[Any, ...]], Any]


def _internal() -> Any:
    import chainerx.internal  # layout: optional[chainerx]

    return chainerx.internal


def _as_outputs(ys: Any, label: str) -> tuple[Any, ...]:
    import chainerx  # layout: optional[chainerx]

    if isinstance(ys, chainerx.ndarray):
        ys = (ys,)
    if not isinstance(ys, tuple | list) or not all(isinstance(y, chainerx.ndarray)
                                                     for y in ys):
        raise TypeError(f'{label}.forward_chainerx must return a tuple of chainerx.ndarray '
                        f'(or chainer.Fallback), not {type(ys).__name__}')
    return tuple(ys)


class ChainerxFunction(FunctionNode):
    """``fn`` (a tuple of ChainerX arrays -> ChainerX arrays) as a node of Chainer's graph.

    Args:
        fn: the ChainerX routine; it gets None for absent inputs.
        device: the ChainerX device of the inputs.
        label: the node's label.
        first: the routine's outputs for the first call, when already computed.
    """

    def __init__(self, fn: ChxFn, device: ChainerxDevice, label: str,
                 first: tuple[Any, ...] | None = None) -> None:
        self._fn = fn
        self._device = device
        self._label = label
        self._first = first

    @property
    def label(self) -> str:
        return self._label

    def _wrap(self, arrays: Sequence[Any]) -> tuple[Any, ...]:
        wrap = _internal().wrap
        return tuple(None if a is None else wrap(a, self._device.device) for a in arrays)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        ys, self._first = self._first, None
        if ys is None:
            ys = _as_outputs(self._fn(self._wrap(inputs)), self._label)
        backing = _internal().backing
        return tuple(backing(y) for y in ys)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        import chainerx  # layout: optional[chainerx]

        fn, n = self._fn, len(self.inputs)
        wanted = list(indexes)

        def gradient(args: tuple[Any, ...]) -> tuple[Any, ...]:
            xs, gys = list(args[:n]), args[n:]
            for i in wanted:
                xs[i].require_grad()
            ys = _as_outputs(fn(tuple(xs)), self._label)
            pairs = [(y, g) for y, g in zip(ys, gys)
                     if g is not None and y.is_backprop_required()]
            if pairs:
                gxs = chainerx.grad([y for y, _ in pairs], [xs[i] for i in wanted],
                                    grad_outputs=[g for _, g in pairs],
                                    enable_double_backprop=True)
            else:
                gxs = [None] * len(wanted)
            return tuple(chainerx.zeros_like(xs[i]) if g is None else g
                         for i, g in zip(wanted, gxs))

        inputs = self.get_retained_inputs()
        node = ChainerxFunction(gradient, self._device, f'{self._label}Grad')
        return node.apply(tuple(inputs) + tuple(grad_outputs))


def apply(node: FunctionNode, inputs: Sequence[Any], in_data: Sequence[Any],
          device: ChainerxDevice) -> tuple[Any, ...] | None:
    """``node``'s ``forward_chainerx`` on ``inputs`` (their NumPy/CuPy arrays ``in_data``)
    as a :class:`ChainerxFunction` node, or None when it returns ``chainer.Fallback``."""
    wrap = _internal().wrap
    xs = tuple(None if a is None else wrap(a, device.device) for a in in_data)
    ys = node.forward_chainerx(xs)
    if ys is chainer.Fallback:
        return None
    first = _as_outputs(ys, node.label)
    return ChainerxFunction(node.forward_chainerx, device, node.label, first).apply(
        tuple(inputs))
