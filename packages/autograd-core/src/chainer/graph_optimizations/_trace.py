"""Recording a static forward: which functions it applied, and where their arrays came from.

While a :class:`Tracer` is active (a function hook of this thread), every function applied
at the top level (not from inside another function's forward) becomes a :class:`Step`: a
copy of the node taken before its forward ran (the template that the replay copies again
on every call), the *slot* each input came from and whether the gradient flows back to it,
and the slots of its outputs. Slots are numbered in the order the replay fills them: the
chain's array arguments, then the parameters, then the constants, then the outputs of the
steps in order.

An input is

* an argument of the chain (a Variable, or an array passed as one),
* a parameter of the chain (a ``chainer.Parameter`` the forward used, registered in the
  chain or not),
* an output of an earlier step,
* or a constant: an array, or a Variable made inside the forward without a creator,
  held as it was at trace time (the same array object on every replay).

A Variable computed outside the forward (it has a creator but is none of the above) cannot
be replayed: its value and its graph change from call to call. The tracer refuses it.
"""

from __future__ import annotations

import copy
import operator
import threading
from collections.abc import Callable, Sequence
from typing import Any

from chainer.function import FunctionAdapter
from chainer.function_hook import FunctionHook
from chainer.function_node import FunctionNode
from chainer.variable import Parameter, Variable

_local = threading.local()


def active() -> Tracer | None:
    """The tracer recording on this thread, or None."""
    return getattr(_local, 'tracer', None)


def clone_node(template: FunctionNode) -> FunctionNode:
    """A fresh shallow copy of ``template`` (its attributes shared, not copied)."""
    node = object.__new__(type(template))
    node.__dict__.update(template.__dict__)
    return node


def _clone_adapter(template: FunctionNode) -> FunctionNode:
    # an old-style Function keeps its forward's state on itself: copy it too
    node = clone_node(template)
    node._function = copy.copy(node._function)  # type: ignore[attr-defined]
    return node


def _no_inputs(values: list[Any]) -> tuple[()]:
    return ()


def _owner(cls: type, name: str) -> type:
    return next(c for c in cls.__mro__ if name in c.__dict__)


def has_array_backward(node: FunctionNode) -> bool:
    """Whether ``node``'s ``_array_backward`` computes what its ``backward`` does.

    True when its class (or a base) defines one at the level of its ``backward`` or below
    it (a subclass that overrides ``backward`` alone does not inherit the array version),
    and it does not override ``backward_accumulate``.
    """
    cls = type(node)
    if cls._overrides_accumulate:
        return False
    owner = _owner(cls, '_array_backward')
    return owner is not FunctionNode and issubclass(owner, _owner(cls, 'backward'))


class Step:
    """One function application of a trace.

    Attributes:
        template: the node as it was before its forward ran.
        clone: makes the fresh copy of ``template`` that one replay runs.
        ins: the slot of each input.
        flows: for each input, whether its gradient goes back to its slot.
        start, stop: the slots of the outputs (consecutive).
        array_backward: whether the replay may call ``_array_backward``.
        label: the function's label.
    """

    __slots__ = ('template', 'clone', 'ins', 'flows', 'start', 'stop', 'array_backward',
                 'label')

    def __init__(self, template: FunctionNode, ins: tuple[int, ...], flows: tuple[bool, ...],
                 start: int, stop: int) -> None:
        self.template = template
        self.clone: Callable[[FunctionNode], FunctionNode] = (
            _clone_adapter if isinstance(template, FunctionAdapter) else clone_node)
        self.ins = ins
        self.flows = flows
        self.start = start
        self.stop = stop
        self.array_backward = has_array_backward(template)
        self.label = template.label


# one step of the replay's backward (see _replay._plan): the step's index, the indexes of
# its inputs that need a gradient and their slots, its output slots (start, stop), whether
# it has an array backward
PlanEntry = tuple[int, tuple[int, ...], tuple[int, ...], int, int, bool]


class Trace:
    """What one traced call did, ready to replay.

    Attributes:
        n_inputs: the number of array arguments (the first slots).
        params: the parameters the steps used (the next slots).
        constants: the constant values (the slots after the parameters).
        steps: the steps in the order they ran.
        outputs: the slots of the returned arrays, in the order of ``structure``.
        structure: how to rebuild the returned value from them (see :func:`rebuild`).
        n_slots: the number of slots.
        plans: the backward plans of the replay, by the indexes of the inputs that need
            gradients (see ``_replay``).
    """

    def __init__(self, n_inputs: int, params: list[Parameter], constants: list[Any],
                 steps: list[Step], outputs: tuple[int, ...], structure: Any) -> None:
        self.n_inputs = n_inputs
        self.params = tuple(params)
        self.constants = constants
        self.steps = steps
        self.outputs = outputs
        self.structure = structure
        self.n_slots = steps[-1].stop if steps else n_inputs + len(params) + len(constants)
        self.plans: dict[tuple[int, ...], list[PlanEntry]] = {}
        # what the replay's forward reads, per step, in one tuple: the template's class
        # and attributes (copied into a fresh node), the template and the copier for a
        # node that needs more than that (None if not), gather (the inputs from the list
        # of slot values), whether it has one input, start, stop, array_backward
        self.program: list[tuple[type, dict[str, Any], FunctionNode,
                                 Callable[[FunctionNode], FunctionNode] | None,
                                 Callable[[list[Any]], Any], bool, int, int, bool]] = [
            (type(s.template), s.template.__dict__, s.template,
             None if s.clone is clone_node else s.clone,
             operator.itemgetter(*s.ins) if s.ins else _no_inputs,
             len(s.ins) == 1, s.start, s.stop, s.array_backward) for s in steps]
        self.blank = [None] * (self.n_slots - n_inputs - len(params) - len(constants))


# Slots while tracing, before the final numbering: ('in', i), ('param', j), ('const', k),
# ('out', step, i).
_Slot = tuple[Any, ...]


class Tracer(FunctionHook):
    """Records the top-level function applications of one call of a static forward.

    Args:
        leaves: the chain's array arguments (Variables or arrays), flattened.

    Use as a context manager around the call, then :meth:`finish` with its result.

    Raises (from the traced call):
        ValueError: when a function gets a Variable computed outside the forward.
    """

    name = 'StaticGraphTracer'

    def __init__(self, leaves: list[Any]) -> None:
        self.n_inputs = len(leaves)
        # objects given to functions, by id: (slot, whether the gradient flows back)
        self._objects: dict[int, tuple[_Slot, bool]] = {}
        # arrays by id: the slot of the Variable they belong to (an argument, a parameter,
        # an output of a step)
        self._arrays: dict[int, _Slot] = {}
        self._keep: list[Any] = []  # what the ids above refer to, alive while tracing
        self._params: list[Parameter] = []
        self._param_slot: dict[int, _Slot] = {}
        self._constants: list[Any] = []
        self._const_slot: dict[int, _Slot] = {}
        self._records: list[tuple[FunctionNode, list[_Slot], list[bool], int]] = []
        self._producers: list[FunctionNode] = []
        self._depth = 0
        self._pending: tuple[FunctionNode, FunctionNode] | None = None
        self.replayable = True
        self.reason = ''
        for i, leaf in enumerate(leaves):
            slot = ('in', i)
            self._objects[id(leaf)] = (slot, True)
            if isinstance(leaf, Variable):
                self._arrays[id(leaf._data)] = slot
            self._keep.append(leaf)

    # -- the hook ---------------------------------------------------------------
    def __enter__(self) -> Tracer:
        super().__enter__()
        self._previous = active()
        _local.tracer = self
        return self

    def __exit__(self, *args: Any) -> None:
        _local.tracer = self._previous
        super().__exit__(*args)

    def forward_preprocess(self, function: Any, in_data: tuple[Any, ...]) -> None:
        self._depth += 1
        if self._depth == 1:
            # the template: the node before its forward (which may set state, such as a
            # dropout mask, that a later forward would reuse)
            template = copy.copy(function)
            if isinstance(function, FunctionAdapter):
                template._function = copy.copy(function._function)
            self._pending = (function, template)

    def forward_postprocess(self, function: Any, in_data: tuple[Any, ...]) -> None:
        self._depth -= 1

    def _forward_outputs(self, function: Any, inputs: Sequence[Any],
                         outputs: tuple[Any, ...]) -> None:
        if self._depth or self._pending is None or self._pending[0] is not function:
            return  # applied inside another function's forward: part of that step
        template = self._pending[1]
        self._pending = None
        template.inputs = template.outputs = None
        k = len(self._records)
        slots, flows = [], []
        for x in inputs:
            slot, flow = self._source(x, function)
            slots.append(slot)
            flows.append(flow)
        for i, y in enumerate(outputs):
            if y is not None:
                self._arrays[id(y)] = ('out', k, i)
                self._keep.append(y)
        self._records.append((template, slots, flows, len(outputs)))
        self._producers.append(function)

    @property
    def labels(self) -> list[str]:
        """The labels of the functions recorded so far, in the order they ran."""
        return [record[0].label for record in self._records]

    def mark_unreplayable(self, reason: str) -> None:
        """Keep the chain define-by-run for this configuration (e.g. a static_code call)."""
        self.replayable = False
        self.reason = reason

    # -- where an input comes from ------------------------------------------------
    def _source(self, x: Any, function: FunctionNode) -> tuple[_Slot, bool]:
        if x is None:
            return self._constant(None), False
        known = self._objects.get(id(x))
        if known is not None:
            return known
        if isinstance(x, Variable):
            if isinstance(x, Parameter) and x._data is not None:
                return self._param(x), True
            slot = self._arrays.get(id(x._data))
            node = x._nd
            creator = None if node is None else node.creator_node
            if slot is not None:
                # an output of a step flows back to it when x is that output's Variable
                flow = slot[0] == 'out' and creator is self._producers[slot[1]]
                return slot, flow
            if creator is not None:
                raise ValueError(
                    f'static_graph: {function.label} got a Variable computed outside '
                    'the static forward (neither an argument of the chain, a parameter nor '
                    'a result of a function called inside it); pass it as an argument')
            return self._constant(x._data), False
        slot = self._arrays.get(id(x))
        if slot is not None:
            return slot, False  # the array of a Variable, used without its graph
        return self._constant(x), False

    def _param(self, p: Parameter) -> _Slot:
        slot = self._param_slot.get(id(p))
        if slot is None:
            slot = self._param_slot[id(p)] = ('param', len(self._params))
            self._params.append(p)
            self._objects[id(p)] = (slot, True)
            self._arrays[id(p._data)] = slot
            self._keep.append(p)
        return slot

    def _constant(self, value: Any) -> _Slot:
        slot = self._const_slot.get(id(value))
        if slot is None:
            slot = self._const_slot[id(value)] = ('const', len(self._constants))
            self._constants.append(value)
        return slot

    # -- the result -----------------------------------------------------------------
    def finish(self, result: Any) -> Trace:
        """Number the slots and build the :class:`Trace` of the call that returned
        ``result``.

        Raises:
            ValueError: when ``result`` holds something other than Variables and arrays
                in (nested) tuples and lists, or a value no function inside computed.
        """
        out_slots: list[_Slot] = []
        structure = _structure(result, self._arrays, out_slots)
        base = self.n_inputs + len(self._params) + len(self._constants)
        starts = []
        for _, _, _, n_out in self._records:
            starts.append(base)
            base += n_out

        def number(slot: _Slot) -> int:
            kind = slot[0]
            if kind == 'in':
                return int(slot[1])
            if kind == 'param':
                return self.n_inputs + int(slot[1])
            if kind == 'const':
                return self.n_inputs + len(self._params) + int(slot[1])
            return starts[slot[1]] + int(slot[2])

        steps = []
        for (template, slots, flows, n_out), start in zip(self._records, starts):
            steps.append(Step(template, tuple(number(s) for s in slots), tuple(flows),
                              start, start + n_out))
        trace = Trace(self.n_inputs, self._params, self._constants, steps,
                      tuple(number(s) for s in out_slots), structure)
        self._keep = []
        return trace


def _structure(value: Any, arrays: dict[int, _Slot], out_slots: list[_Slot]) -> Any:
    """The shape of a returned value: 'var' or 'array' for a leaf (its slot appended to
    ``out_slots``), (type, [parts]) for a tuple or a list."""
    if isinstance(value, (tuple, list)):
        return (type(value), [_structure(v, arrays, out_slots) for v in value])
    is_var = isinstance(value, Variable)
    slot = arrays.get(id(value._data if is_var else value))
    if slot is None or slot[0] != 'out':
        what = type(value).__name__
        raise ValueError(
            'static_graph: a static forward must return Variables (or arrays, in tuples or '
            f'lists) computed by chainer functions inside it; it returned a {what} that '
            'none of them computed')
    out_slots.append(slot)
    return 'var' if is_var else 'array'


def rebuild(structure: Any, outputs: Any) -> Any:
    """The returned value of ``structure`` (see :func:`_structure`) from the outputs."""
    it = iter(outputs)

    def build(s: Any) -> Any:
        if s == 'var':
            return next(it)
        if s == 'array':
            return next(it).array
        kind, parts = s
        return kind([build(p) for p in parts])

    return build(structure)
