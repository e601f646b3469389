"""forget: call a function without keeping its intermediate results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import chainer
from chainer.function_node import FunctionNode
from chainer.variable import Variable, _array_types


class _Identity(FunctionNode):
    """``y = x``: a fresh graph node in front of a recomputation's inputs."""

    def forward(self, inputs: Any) -> Any:
        return inputs

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        return grad_outputs


def _call(func: Callable[..., Any], xs: list[Variable]) -> tuple[tuple[Variable, ...], bool]:
    outs = func(*xs)
    is_tuple = isinstance(outs, (tuple, list))
    if not is_tuple:
        outs = (outs,)
    ret = []
    for y in outs:
        if isinstance(y, _array_types):
            y = Variable(y, requires_grad=False)
        elif not isinstance(y, Variable):
            raise TypeError('the function given to forget must return a Variable or a tuple of '
                            f'Variables, not {type(y).__name__}')
        ret.append(y)
    return tuple(ret), is_tuple


class Forget(FunctionNode):
    """Run ``func`` without a graph; rerun it with a graph in backward."""

    def __init__(self, func: Callable[..., Any]) -> None:
        if not callable(func):
            raise TypeError(f'func must be callable, not {type(func).__name__}')
        self.func = func
        self.is_tuple = False

    @property
    def label(self) -> str:
        return 'Forget'

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs(tuple(range(len(inputs))))
        with chainer.no_backprop_mode():
            outs, self.is_tuple = _call(self.func, [Variable(x) for x in inputs])
        self._n_out = len(outs)
        return tuple(y.array for y in outs)

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        inputs = self.get_retained_inputs()
        double = chainer.config.enable_backprop
        if double:
            # Recompute on fresh nodes in front of the real inputs, so that the
            # gradients stay differentiable w.r.t. them (double backprop).
            xs = [_Identity().apply((v,))[0] if i in indexes else v
                  for i, v in enumerate(inputs)]
        else:
            xs = [Variable(v.array, requires_grad=i in indexes)
                  for i, v in enumerate(inputs)]
        with chainer.force_backprop_mode(), chainer.using_config('in_recomputing', True):
            outs, _ = _call(self.func, xs)
        if len(outs) != self._n_out:
            raise RuntimeError(
                f'the function given to forget returned {len(outs)} outputs in the backward '
                f'recomputation but {self._n_out} in the forward pass')
        pairs = [(y, g) for y, g in zip(outs, grad_outputs) if g is not None]
        if not pairs:
            return (None,) * len(indexes)
        targets = [xs[i] for i in indexes]
        grads = chainer.grad([y for y, _ in pairs], targets, [g for _, g in pairs],
                             enable_double_backprop=double)
        return tuple(grads)


def forget(func: Callable[..., Any], *xs: Any) -> Any:
    """Call ``func(*xs)`` without storing its intermediate results.

    The forward pass runs ``func`` with backprop disabled, so only the inputs
    and outputs are kept; the backward pass calls ``func`` again (with
    ``chainer.config.in_recomputing`` set to True) to build the graph it needs.
    This trades computation for memory. ``func`` must be deterministic: random
    functions such as dropout would give a different result the second time.

    Args:
        func: a function of Variables returning a Variable or a tuple of them.
        *xs: its arguments (Variables or arrays; arrays become Variables that
            require gradients).

    Returns:
        What ``func`` returns: a Variable, or a tuple of Variables when it
        returns a tuple.

    Raises:
        TypeError: when ``func`` is not callable or returns something else than
            Variables.
    """
    xs = tuple(x if isinstance(x, Variable) else Variable(x, requires_grad=True) for x in xs)
    node = Forget(func)
    outs = node.apply(xs)
    return outs if node.is_tuple else outs[0]
