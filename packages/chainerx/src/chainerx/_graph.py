"""Computational graphs: backprop ids, backprop modes, recording and backward.

Every array holds one :class:`ArrayNode` per graph (backprop id) it is part of. A
differentiable routine calls :func:`record` with its input and output arrays and a
backward function; for each graph that one of the inputs is in (and whose backprop mode
is on), an :class:`OpNode` links the inputs' nodes to new nodes of the outputs. The
backward function takes the outputs' gradients and returns the inputs', computed with
ChainerX routines: so a backward pass run with double backprop is itself recorded.
"""

from __future__ import annotations

import heapq
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy

from chainerx._device import BackpropId, Context, Device, get_default_context
from chainerx._errors import ChainerxError, GradientError

if TYPE_CHECKING:
    from chainerx._array import ndarray

BackwardFn = Callable[[list['ndarray'], list[bool]], Sequence['ndarray | None']]
"""``backward(output grads, which inputs need one) -> input grads (None: no grad)``."""


class _AnyGraph:
    """``chainerx.anygraph``: "in any graph" for ``is_backprop_required``."""

    def __repr__(self) -> str:
        return 'chainerx.anygraph'


anygraph = _AnyGraph()


class ArrayNode:
    """An array's place in one graph: its creator op, its gradient and whether it is kept."""

    __slots__ = ('__weakref__', 'creator', 'grad', 'grad_required', 'rank')

    def __init__(self, creator: OpNode | None, rank: int) -> None:
        self.creator = creator
        self.rank = rank
        self.grad: ndarray | None = None
        self.grad_required = False


class OpNode:
    """One call of a routine in one graph."""

    __slots__ = ('backward', 'inputs', 'out_meta', 'outputs', 'rank')

    def __init__(self, inputs: list[ArrayNode | None], backward: BackwardFn, rank: int,
                 out_meta: list[tuple[tuple[int, ...], numpy.dtype, Device]]) -> None:
        self.inputs = inputs
        self.backward = backward
        self.rank = rank
        self.out_meta = out_meta
        self.outputs: list[weakref.ref[ArrayNode]] = []


# ---- backprop modes ------------------------------------------------------------------

class _Mode:
    __slots__ = ('context', 'enabled', 'ids')

    def __init__(self, context: Context, ids: frozenset[BackpropId] | None,
                 enabled: bool) -> None:
        self.context = context
        self.ids = ids
        self.enabled = enabled


class _ModeState(threading.local):
    def __init__(self) -> None:
        self.modes: list[_Mode] = []


_modes = _ModeState()


def _enabled(bp: BackpropId) -> bool:
    for mode in reversed(_modes.modes):
        if mode.context is bp.context and (mode.ids is None or bp in mode.ids):
            return mode.enabled
    return True


def _mode_target(arg: Any) -> tuple[Context, frozenset[BackpropId] | None]:
    if arg is None:
        return get_default_context(), None
    if isinstance(arg, Context):
        return arg, None
    if isinstance(arg, BackpropId):
        return arg.context, frozenset((arg,))
    ids = tuple(arg)
    if not ids or not all(isinstance(b, BackpropId) for b in ids):
        raise TypeError(f'expected a context, a backprop id or backprop ids: {arg!r}')
    context = ids[0].context
    if any(b.context is not context for b in ids):
        raise ChainerxError('backprop ids of different contexts')
    return context, frozenset(ids)


@contextmanager
def _mode_scope(arg: Any, enabled: bool) -> Iterator[None]:
    context, ids = _mode_target(arg)
    _modes.modes.append(_Mode(context, ids, enabled))
    try:
        yield
    finally:
        _modes.modes.pop()


def no_backprop_mode(backprop_id: Any = None) -> Any:
    """A scope in which no graph is recorded: for all graphs of the default context (no
    argument), of a context, or for a backprop id or a sequence of them."""
    return _mode_scope(backprop_id, False)


def force_backprop_mode(backprop_id: Any = None) -> Any:
    """A scope in which graphs are recorded again (inside :func:`no_backprop_mode`)."""
    return _mode_scope(backprop_id, True)


def resolve_backprop_id(backprop_id: BackpropId | None) -> BackpropId:
    """The backprop id an optional argument names (None: the default context's)."""
    if backprop_id is None:
        return get_default_context().default_backprop_id
    if not isinstance(backprop_id, BackpropId):
        raise TypeError(f'not a backprop id: {backprop_id!r}')
    if backprop_id._released:
        raise ChainerxError(f'backprop id {backprop_id.name!r} has been released')
    return backprop_id


def is_backprop_required(backprop_id: BackpropId | None = None,
                         context: Context | None = None) -> bool:
    """Whether graphs of *backprop_id* (default: the default graph of *context*, or of
    the default context) are recorded here."""
    if context is not None and not isinstance(context, Context):
        raise TypeError(f'not a context: {context!r}')
    if backprop_id is None:
        bp = (context or get_default_context()).default_backprop_id
    else:
        bp = resolve_backprop_id(backprop_id)
    return _enabled(bp)


@contextmanager
def backprop_scope(backprop_name: str, context: Context | None = None) -> Iterator[BackpropId]:
    """A new backprop id (a separate graph) valid within the scope."""
    context = context or get_default_context()
    bp = context.make_backprop_id(backprop_name)
    try:
        yield bp
    finally:
        context.release_backprop_id(bp)


# ---- recording -------------------------------------------------------------------------

def record(inputs: Sequence[ndarray], outputs: Sequence[ndarray], backward: BackwardFn) -> None:
    """Link *outputs* to *inputs* in every graph an input is in (where recording is on)."""
    ids: set[BackpropId] | None = None
    for x in inputs:
        if x._nodes:
            if ids is None:
                ids = set(x._nodes)
            else:
                ids.update(x._nodes)
    if not ids:
        return
    check_modes = bool(_modes.modes)
    out_meta = None
    for bp in ids:
        if bp._released or (check_modes and not _enabled(bp)):
            continue
        in_nodes = [x._nodes.get(bp) for x in inputs]
        rank = 1 + max(n.rank for n in in_nodes if n is not None)
        if out_meta is None:
            out_meta = [(y.shape, y._data.dtype, y._device) for y in outputs]
        op = OpNode(in_nodes, backward, rank, out_meta)
        for y in outputs:
            node = ArrayNode(op, rank)
            y._nodes[bp] = node
            op.outputs.append(weakref.ref(node))


def is_recording(inputs: Sequence[ndarray]) -> bool:
    """Whether a routine on *inputs* would be recorded in some graph now."""
    for x in inputs:
        for bp in x._nodes:
            if not bp._released and _enabled(bp):
                return True
    return False


# ---- backward --------------------------------------------------------------------------

def _run(outputs: Sequence[ndarray], bp: BackpropId, enable_double_backprop: bool,
         grad_outputs: Sequence[ndarray] | None, keep: set[ArrayNode],
         retain_grad: bool, keep_required: bool) -> dict[ArrayNode, ndarray]:
    """Backpropagate from *outputs* in graph *bp*; the gradients of the nodes in *keep*,
    of those requiring one (*keep_required*) and of every node (*retain_grad*) are
    returned."""
    from chainerx import _creation

    grads: dict[ArrayNode, ndarray] = {}
    heap: list[tuple[int, int, OpNode]] = []
    seen: set[int] = set()

    def push(node: ArrayNode) -> None:
        op = node.creator
        if op is not None and id(op) not in seen:
            seen.add(id(op))
            heapq.heappush(heap, (-op.rank, len(seen), op))

    with _mode_scope(bp, enable_double_backprop):
        for i, y in enumerate(outputs):
            node = y._nodes.get(bp)
            if node is None:
                continue
            if grad_outputs is not None:
                g = grad_outputs[i]
            elif node.grad is not None:
                g = node.grad
            else:
                g = _creation.ones_like(y).as_grad_stopped()
            prev = grads.get(node)
            grads[node] = g if prev is None else prev + g
            push(node)
        while heap:
            op = heapq.heappop(heap)[2]
            outs = [r() for r in op.outputs]
            gys = [None if n is None else grads.get(n) for n in outs]
            if all(g is None for g in gys):
                continue
            for n in outs:
                if (n is not None and not retain_grad and n not in keep
                        and not (keep_required and n.grad_required)):
                    grads.pop(n, None)
            filled = [g if g is not None else _creation.zeros(s, d, device=dev)
                      for g, (s, d, dev) in zip(gys, op.out_meta)]
            need = [n is not None for n in op.inputs]
            gxs = op.backward(filled, need)
            for n, gx in zip(op.inputs, gxs):
                if n is None or gx is None:
                    continue
                prev = grads.get(n)
                grads[n] = gx if prev is None else prev + gx
                push(n)
    return grads


def _as_list(arrays: Any) -> list[ndarray]:
    from chainerx._array import ndarray

    if isinstance(arrays, ndarray):
        return [arrays]
    arrays = list(arrays)
    if not all(isinstance(a, ndarray) for a in arrays):
        raise TypeError('expected chainerx.ndarray objects')
    return arrays


def backward(outputs: Any, backprop_id: BackpropId | None = None,
             enable_double_backprop: bool = False) -> None:
    """Accumulate the gradients of *outputs* (an array or a sequence of arrays) into
    every array that requires a gradient in graph *backprop_id*.

    Outputs without a gradient start from ones. With *enable_double_backprop* the
    backward computation is recorded, so the gradients can be differentiated again.
    """
    bp = resolve_backprop_id(backprop_id)
    outs = _as_list(outputs)
    seeds = {y._nodes[bp] for y in outs if bp in y._nodes}
    grads = _run(outs, bp, enable_double_backprop, None, set(), False, True)
    with _mode_scope(bp, enable_double_backprop):
        for node, g in grads.items():
            if not node.grad_required:
                continue
            if node in seeds:
                if node.grad is None:
                    node.grad = g
            elif node.grad is None:
                node.grad = g
            else:
                node.grad = node.grad + g


def grad(outputs: Sequence[ndarray], inputs: Sequence[ndarray],
         backprop_id: BackpropId | None = None, enable_double_backprop: bool = False,
         set_grad: bool = False, retain_grad: bool = False,
         grad_outputs: Sequence[ndarray] | None = None) -> list[ndarray | None]:
    """The gradients of *outputs* with respect to *inputs* in graph *backprop_id*
    (None where an input is not reached); the arrays' own gradients are left as they
    are unless *set_grad* (inputs) or *retain_grad* (intermediate arrays) is given."""
    bp = resolve_backprop_id(backprop_id)
    outs = _as_list(outputs)
    ins = _as_list(inputs)
    if grad_outputs is not None and len(grad_outputs) == 0:
        grad_outputs = None
    if grad_outputs is not None and len(grad_outputs) != len(outs):
        raise GradientError(
            f'{len(grad_outputs)} output gradients given for {len(outs)} outputs')
    in_nodes = [x._nodes.get(bp) for x in ins]
    keep = {n for n in in_nodes if n is not None}
    grads = _run(outs, bp, enable_double_backprop, grad_outputs, keep, retain_grad, False)
    result = [None if n is None else grads.get(n) for n in in_nodes]
    if retain_grad:
        for node, g in grads.items():
            if node not in keep:
                node.grad = g
                node.grad_required = True
    if set_grad:
        for in_node, gx in zip(in_nodes, result):
            if in_node is not None:
                in_node.grad = gx
    return result
