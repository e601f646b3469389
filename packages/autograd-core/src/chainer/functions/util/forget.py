"""forget: call a function without keeping its intermediate results."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

import chainer
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import BadReturnError, retained_inputs
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray

_SUFFIXES = {1: 'st', 2: 'nd', 3: 'rd'}


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ..., ``21st``."""
    teen = 10 <= n % 100 <= 20
    return f'{n}{"th" if teen else _SUFFIXES.get(n % 10, "th")}'


def _call(func: Callable[..., Any], xs: list[Variable]) -> tuple[Variable, ...]:
    """``func(*xs)`` as a tuple of Variables.

    Raises:
        RuntimeError: when ``func`` returns something else than a Variable or a
            tuple of Variables (as in v7).
    """
    outs = func(*xs)
    if isinstance(outs, Variable):
        return (outs,)
    if not isinstance(outs, tuple):
        raise BadReturnError('the function given to forget (func) must return a Variable or '
                             f'a tuple of Variables, but it returned {type(outs).__name__}')
    for i, y in enumerate(outs):
        if not isinstance(y, Variable):
            raise BadReturnError(f'the {_ordinal(i + 1)} element of the tuple returned by the '
                                 'function given to forget (func) is not a Variable but '
                                 f'{type(y).__name__}')
    return outs


class Forget(FunctionNode):
    """Run ``func`` without a graph; rerun it with a graph in backward.

    Raises:
        RuntimeError: in backward with ``enable_double_backprop`` (forget is
            differentiable once only, as in v7).
    """

    def __init__(self, func: Callable[..., Variable | tuple[Variable, ...]]) -> None:
        if not callable(func):
            raise TypeError(f'func must be callable, not {type(func).__name__}')
        self.func = func

    @property
    def label(self) -> str:
        return 'Forget'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        with chainer.no_backprop_mode():
            outs = _call(self.func, [Variable(x) for x in inputs])
        self._n_out = len(outs)
        return tuple([y.array for y in outs])

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            raise RuntimeError('double backpropagation through functions.forget is not '
                               'supported')
        # Recompute with a graph from fresh leaves, then backpropagate through it
        # as a plain backward pass: the leaves get the input gradients and the
        # parameters used by func (e.g. a Link's) accumulate theirs.
        xs = [Variable(v.array) for v in retained_inputs(self)]
        with chainer.force_backprop_mode(), chainer.using_config('in_recomputing', True):
            outs = _call(self.func, xs)
        if len(outs) != self._n_out:
            raise RuntimeError(
                f'the function given to forget returned {len(outs)} outputs in the backward '
                f'recomputation but {self._n_out} in the forward pass')
        pairs = [(y, g) for y, g in zip(outs, grad_outputs) if g is not None]
        if pairs:
            chainer.backward([y for y, _ in pairs], [g for _, g in pairs])
        return tuple([xs[i].grad_var for i in indexes])


@overload
def forget(func: Callable[..., Variable], *xs: VariableOrArray) -> Variable: ...


@overload
def forget(func: Callable[..., tuple[Variable, ...]],
           *xs: VariableOrArray) -> Variable | tuple[Variable, ...]: ...


@guarded
def forget(func: Callable[..., Variable | tuple[Variable, ...]],
           *xs: VariableOrArray) -> Variable | tuple[Variable, ...]:
    """Call ``func(*xs)`` without storing its intermediate results.

    The forward pass runs ``func`` with backprop disabled, so only the inputs
    and outputs are kept; the backward pass calls ``func`` again (with
    ``chainer.config.in_recomputing`` set to True) to build the graph it needs.
    This trades computation for memory. ``func`` must be deterministic: random
    functions such as dropout would give a different result the second time.
    Parameters that ``func`` uses (of a Link, say) get their gradients in that
    backward pass. Double backpropagation through ``forget`` is not supported.

    Args:
        func: a function of Variables returning a Variable or a tuple of them.
        *xs: its arguments (Variables or arrays; arrays become Variables that
            require gradients).

    Returns:
        A Variable when ``func`` returns one Variable (or a tuple of one), else
        a tuple of Variables.

    Raises:
        TypeError: when ``func`` is not callable.
        RuntimeError: when ``func`` returns something else than a Variable or a
            tuple of Variables; in a backward pass with double backprop.
    """
    xs = tuple(x if isinstance(x, Variable) else Variable(x, requires_grad=True) for x in xs)
    outs = Forget(func).apply(xs)
    return outs[0] if len(outs) == 1 else outs
