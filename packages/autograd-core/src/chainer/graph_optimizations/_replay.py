"""Replaying a trace: one function node whose forward and backward run the recorded steps.

A :class:`Replay` node takes the chain's array arguments and the parameters the trace used
and returns the chain's outputs. Its forward runs, on arrays, a fresh copy of each
recorded node (the copy keeps the state that node's forward sets, so several calls in
flight stay apart), keeping what each node retained; its backward runs the nodes'
backward in reverse order: the array-level ``_array_backward`` where the node has one,
else its ordinary backward on Variables (under ``enable_backprop=False``, with the graph
state ``apply`` would have given it). No Variable, variable node or graph edge is made
for the steps themselves: that bookkeeping is what the replay saves.

Both passes are plain loops over the steps on whatever arrays the nodes compute with
(NumPy or CuPy).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from chainer import utils
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.graph_optimizations._trace import PlanEntry, Trace
    from chainer.types import GradInputs, GradOutputs, NdArray


class _Gone:
    pass


# the weak reference of an output node that is gone: a node's retained outputs are
# recreated from its retained arrays (FunctionNode.get_retained_outputs)
_GONE = weakref.ref(_Gone())
_FIRST = (0,)

_DOUBLE_BACKPROP = (
    'static_graph: a replayed static forward has a first-order backward only; for double '
    'backprop (enable_double_backprop, chainer.grad(..., enable_double_backprop=True)) '
    'decorate the forward with @static_graph(enable_double_backprop=True), which keeps it '
    'define-by-run')


class Replay(FunctionNode):
    """One replay of a :class:`~chainer.graph_optimizations._trace.Trace`.

    Args:
        trace: the trace to replay.
    """

    def __init__(self, trace: Trace) -> None:
        self._trace = trace
        self._records: list[tuple[FunctionNode, tuple[Any, ...] | None]] = []

    @property
    def label(self) -> str:
        return 'StaticGraph'

    def _check_numeric(self, in_data: tuple[Any, ...]) -> None:
        pass  # the trace checked the arrays of this signature

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        trace = self._trace
        values = [*inputs, *trace.constants, *trace.blank]
        records = self._records = []
        append = records.append
        new = object.__new__
        for cls, state, template, clone, gather, one, start, stop, fast in trace.program:
            if clone is None:
                node: FunctionNode = new(cls)
                node.__dict__.update(state)
            else:
                node = clone(template)
            xs: tuple[Any, ...] = (gather(values),) if one else gather(values)
            ys = node.forward(xs)
            if type(ys) is not tuple or len(ys) != stop - start:
                ys = _check_outputs(node, ys, stop - start)
            values[start:stop] = ys
            kept = node._output_indexes_to_retain
            if kept is not None:
                node._retained_output_data = ys if kept == _FIRST and stop - start == 1 \
                    else tuple([ys[i] for i in kept])
            # the inputs, when the node keeps any of them (or runs its Variable backward)
            append((node, xs if node._input_indexes_to_retain or not fast else None))
        return tuple([values[i] for i in trace.outputs])

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if config.enable_backprop:
            raise RuntimeError(_DOUBLE_BACKPROP)
        trace = self._trace
        records = self._records
        grads: list[Any] = [None] * trace.n_slots
        for slot, g in zip(trace.outputs, grad_outputs):
            if g is not None:
                _add_grad(grads, slot, g._data)
        for k, need, slots, start, stop, fast in _plan(trace, indexes):
            if stop - start == 1:
                gy = grads[start]
                if gy is None:
                    continue  # no gradient reached this step
                gys: tuple[Any, ...] = (gy,)
            else:
                gys = tuple(grads[start:stop])
                if all(g is None for g in gys):
                    continue
            node, xs = records[k]
            if fast:
                gxs = node._array_backward(need, xs, gys)
            else:
                assert xs is not None  # kept for a node without an array backward
                gxs = _variable_backward(node, xs, need, gys)
            for slot, g in zip(slots, gxs):
                if g is not None:
                    if grads[slot] is None:
                        grads[slot] = g
                    else:
                        _add_grad(grads, slot, g)
        new = Variable._new
        return tuple([None if g is None else new(g, False)
                      for g in [grads[i] for i in indexes]])


def _add_grad(grads: list[Any], slot: int, g: Any) -> None:
    prev = grads[slot]
    grads[slot] = g if prev is None else utils.force_array(prev + g)


def _check_outputs(node: FunctionNode, ys: Any, n: int) -> tuple[Any, ...]:
    if isinstance(ys, list):
        ys = tuple(ys)
    if type(ys) is not tuple or len(ys) != n:
        raise RuntimeError(f'static_graph: {node.label} returned {len(ys)} outputs on '
                           f'replay, {n} when recorded')
    return ys


def _plan(trace: Trace, indexes: tuple[int, ...]) -> list[PlanEntry]:
    """The steps whose backward the replay runs for gradients of the inputs ``indexes``
    (latest first): for each, its index, the indexes of its inputs that need a gradient
    and their slots, the slots of its outputs (start, stop) and whether it has an array
    backward.

    A slot needs a gradient when it is one of ``indexes`` or an output of a step with an
    input that needs one. Cached on the trace per ``indexes``.
    """
    cached = trace.plans.get(indexes)
    if cached is not None:
        return cached
    wanted = [False] * trace.n_slots
    for i in indexes:
        wanted[i] = True
    plan: list[PlanEntry] = []
    for k, step in enumerate(trace.steps):
        need = tuple(i for i, (slot, flow) in enumerate(zip(step.ins, step.flows))
                     if flow and wanted[slot])
        if need:
            wanted[step.start:step.stop] = [True] * (step.stop - step.start)
            plan.append((k, need, tuple(step.ins[i] for i in need), step.start, step.stop,
                         step.array_backward))
    plan.reverse()
    trace.plans[indexes] = plan
    return plan


def _variable_backward(node: FunctionNode, xs: tuple[Any, ...],
                       need: tuple[int, ...], gys: tuple[Any, ...]) -> tuple[Any, ...]:
    """The gradients by ``node``'s own (Variable) backward, with the graph state that
    ``apply`` gives a node: input nodes (holding the retained arrays) and outputs."""
    kept = node._input_indexes_to_retain or ()
    in_nodes = []
    for i, x in enumerate(xs):
        var_node = Variable._new(x, i in need)._node
        if i in kept:
            var_node.data = x
        in_nodes.append(var_node)
    node.inputs = tuple(in_nodes)
    node.outputs = (_GONE,) * len(gys)
    gxs = node._run_backward(
        need, tuple([None if g is None else Variable._new(g, False) for g in gys]), False)
    return tuple([None if g is None else g._data for g in gxs])
