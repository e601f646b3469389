"""The backward pass: walks the graph by rank with a heap.

Gradients live in a dict keyed by variable node while the pass runs. A
function's output gradients are dropped as soon as the function has been
processed (unless ``retain_grad``), so memory shrinks as the pass proceeds.
"""

from __future__ import annotations

import heapq
import traceback
import warnings
from typing import Any

import chainer
from chainer import _chainerx_bridge, _deferred_grad
from chainer._deferred_grad import DeferredGrad
from chainer.configuration import using_config
from chainer.utils import force_array


def _add(a: Any, b: Any, double: bool) -> Any:
    if double:
        return a + b
    # 0-dim arrays add up to NumPy scalars: force_array turns them back into arrays
    return chainer.Variable._new(force_array(a._data + b._data), False)


class _Pending(list):
    """Gradients of one node not summed yet (``config.lazy_grad_sum``)."""


def _resolve(g: Any, double: bool) -> Any:
    """Sum pending gradients in one go (one n-ary add instead of n-1 binary ones)."""
    if type(g) is not _Pending:
        if isinstance(g, DeferredGrad):
            return chainer.Variable._new(g.materialize(), False)
        return g
    if len(g) == 1:
        return g[0]
    if double:
        return chainer.functions.add(*g)
    total = force_array(g[0]._data + g[1]._data)
    for v in g[2:]:
        total += v._data
    return chainer.Variable._new(total, False)


def _accumulate(prev: Any, g: Any, double: bool, lazy: bool, owned: set[Any]) -> Any:
    """``prev + g``; in place when ``prev`` is a sum this pass made and handed out to nobody.

    ``owned`` holds those sums: a gradient used many times (a weight shared over the steps
    of an RNN) then costs one new array instead of one per use.
    """
    if prev is None:
        return g
    if lazy:
        if type(prev) is _Pending:
            prev.append(g)
            return prev
        return _Pending([prev, g])
    if double:
        return prev + g
    if isinstance(prev, DeferredGrad) or isinstance(g, DeferredGrad):
        if isinstance(g, DeferredGrad) and isinstance(prev, DeferredGrad):
            if prev.merge(g):
                return prev
            if prev.shape == g.shape and prev.dtype == g.dtype:
                return _deferred_grad.DeferredSum(prev, g)  # e.g. a tied weight
        # a dense gradient meets a deferred one: sum them densely from here on
        if isinstance(prev, DeferredGrad):
            prev = chainer.Variable._new(prev.materialize(), False)
            owned.add(prev)
        if isinstance(g, DeferredGrad):
            g = chainer.Variable._new(g.materialize(), False)
    a, b = prev._data, g._data
    if prev in owned and a.shape == b.shape and a.dtype == b.dtype:
        a += b
        return prev
    total = _add(prev, g, False)
    owned.add(total)
    return total


def _needed_functions(roots: list[Any], targets: set[Any]) -> set[Any]:
    """Functions on some path from a root node back to a target node."""
    reaches: dict[Any, bool] = {}
    order: list[Any] = []
    stack = [n.creator_node for n in roots if n.creator_node is not None]
    seen = set(stack)
    while stack:
        func = stack.pop()
        order.append(func)
        for node in func.inputs:
            creator = node.creator_node
            if creator is not None and creator not in seen:
                seen.add(creator)
                stack.append(creator)
    for func in sorted(order, key=lambda f: f.rank):
        reaches[func] = any(
            node in targets or (node.creator_node is not None
                                and reaches.get(node.creator_node, False))
            for node in func.inputs)
    return {f for f, r in reaches.items() if r}


class _BackwardPass:
    """One backward pass: the state shared by its steps.

    :func:`run_backward` builds it (the initial gradients and the first functions
    on the heap), :meth:`walk` processes the functions from the highest rank down,
    and :meth:`target_grads` (``chainer.grad``) or :meth:`store_leaf_grads`
    (``backward``) hands the results out.
    """

    __slots__ = ('grads', 'heap', 'seen', 'counter', 'keep', 'targets', 'needed',
                 'retain_grad', 'double', 'lazy', 'loss_scale', 'owned', 'hooks_enabled',
                 'defer')

    def __init__(self, root_nodes: list[Any], root_grads: list[Any], retain_grad: bool,
                 enable_double_backprop: bool, loss_scale: float | None,
                 targets: list[Any] | None) -> None:
        self.retain_grad = retain_grad
        self.double = enable_double_backprop
        self.lazy = bool(chainer.config.lazy_grad_sum)
        self.loss_scale = loss_scale
        self.targets = set(targets) if targets is not None else None
        # chainer.grad: only the functions on a path from a root back to a target
        self.needed = (_needed_functions(root_nodes, self.targets)
                       if self.targets is not None else None)
        # roots and targets keep their gradients while the pass runs
        self.keep = set(root_nodes) | (self.targets or set())
        # sums this pass made and handed out to nobody (may be added to in place)
        self.owned: set[Any] = set()
        self.hooks_enabled = bool(chainer._n_function_hooks) and bool(
            chainer._get_global_function_hooks())
        # leaf gradients may be summed at the end (see chainer._deferred_grad)
        self.defer = (self.targets is None and not retain_grad and not self.double
                      and not self.lazy and not self.hooks_enabled
                      and not chainer.config.debug)
        self.grads = self._initial_grads(root_nodes, root_grads)
        self.heap: list[Any] = []
        self.seen: set[Any] = set()
        self.counter = 0
        for node in root_nodes:
            self._schedule(node.creator_node)

    def _initial_grads(self, root_nodes: list[Any], root_grads: list[Any]) -> dict[Any, Any]:
        """The roots' gradients by node (a root given twice gets the sum)."""
        grads: dict[Any, Any] = {}
        for node, g in zip(root_nodes, root_grads):
            if g is None:
                continue
            grads[node] = _add(grads[node], g, self.double) if node in grads else g
        return grads

    def _schedule(self, func: Any) -> None:
        """Put ``func`` on the heap (highest rank first), once, when the pass needs it."""
        if func is not None and func not in self.seen and (
                self.needed is None or func in self.needed):
            self.seen.add(func)
            heapq.heappush(self.heap, (-func.rank, self.counter, func))
            self.counter += 1

    def walk(self) -> None:
        """Process the scheduled functions, highest rank first.

        For each: take its outputs' gradients (:meth:`_output_grads`), call its backward
        for the inputs that want a gradient, add the results to those inputs' totals
        (:func:`_accumulate`) and schedule the inputs' creators. (The steps are written
        out in this one loop, which runs once per function: a call here costs time.)
        """
        heap, grads, needed, targets = self.heap, self.grads, self.needed, self.targets
        double, lazy, owned, seen = self.double, self.lazy, self.owned, self.seen
        hooks_enabled, defer = self.hooks_enabled, self.defer
        output_grads, pop, push = self._output_grads, heapq.heappop, heapq.heappush
        counter = self.counter
        while heap:
            func = pop(heap)[2]
            grad_outputs = output_grads(func)
            if grad_outputs is None:
                continue  # no gradient reached any output
            # the inputs whose gradients this pass computes
            in_nodes = func.inputs
            if needed is None:
                indexes = tuple([i for i, n in enumerate(in_nodes) if n._requires_grad])
            else:
                indexes = tuple([i for i, n in enumerate(in_nodes) if n._requires_grad and (
                    n in targets or n.creator_node in needed)])  # type: ignore[operator]
            if not indexes:
                continue
            try:
                if defer:
                    _deferred_grad.running(func)
                gxs = func._run_backward(indexes, grad_outputs, hooks_enabled)
            except Exception as e:
                if func.stack is not None:  # recorded in debug mode: say where it was applied
                    _add_stack_trace(e, func)
                raise
            for i, gx in zip(indexes, gxs):
                if gx is None:
                    continue
                node = in_nodes[i]
                prev = grads.get(node)
                grads[node] = gx if prev is None else _accumulate(prev, gx, double, lazy, owned)
                creator = node.creator_node  # None for a leaf
                if creator is not None and creator not in seen and (
                        needed is None or creator in needed):  # as _schedule does
                    seen.add(creator)
                    push(heap, (-creator.rank, counter, creator))
                    counter += 1
        self.counter = counter

    def _output_grads(self, func: Any) -> tuple[Any, ...] | None:
        """The gradients of ``func``'s outputs (None where none), or None if all are None.

        An output's gradient leaves the table once taken, except for roots and targets,
        and with ``retain_grad`` (``backward`` then also stores it on the variable).
        """
        grads, keep, retain, owned = self.grads, self.keep, self.retain_grad, self.owned
        backward = self.targets is None  # (not chainer.grad)
        grad_outputs: list[Any] = []
        has_grad = False
        for ref in func.outputs:
            out = ref()
            if out is None:
                grad_outputs.append(None)
                continue
            if out in keep:
                g = grads.get(out)
            elif not retain:
                g = grads.pop(out, None)
            else:
                g = grads.get(out)
                if g is not None and backward:
                    g = grads[out] = _resolve(g, self.double)
                    var = out._variable()
                    if var is not None:
                        var._grad_var = g
            if g is None and backward:
                # an output no gradient reached: its variable's own grad (e.g. set
                # by the user on another output of the function), as in v7
                var = out._variable()
                if var is not None:
                    g = var._grad_var
            if g is not None:
                has_grad = True
                if owned:
                    owned.discard(g)  # handed to backward: never changed in place again
                if self.lazy and type(g) is _Pending:
                    g = _resolve(g, self.double)
                    if out in grads:
                        grads[out] = g
            grad_outputs.append(g)
        return tuple(grad_outputs) if has_grad else None

    def target_grads(self, targets: list[Any]) -> dict[Any, Any]:
        """``chainer.grad``: the targets' gradients (with ``retain_grad``, every gradient
        computed is also stored on its variable)."""
        grads, double = self.grads, self.double
        result = {n: _resolve(grads.get(n), double) for n in targets}
        if self.retain_grad:
            for node, g in grads.items():
                var = node._variable()
                if var is not None:
                    var._grad_var = result[node] if node in result else _resolve(g, double)
        return result

    def store_leaf_grads(self) -> None:
        """``backward``: add the leaves' gradients to their variables' ``grad``."""
        double = self.double
        for node, g in self.grads.items():
            # leaves only (an output that is a leaf gets its given gradient, as in v7)
            if node.creator_node is not None:
                continue
            var = node._variable()
            if var is None or not node._requires_grad:
                continue
            g = _resolve(g, double)
            scale = self.loss_scale
            if scale is not None and var._chx is not None:
                # as v7's ChainerX backward: the gradient of a ChainerX variable comes
                # with the loss scale divided out (update rules leave it as it is)
                g = g / scale
                scale = None
            prev = var._grad_var
            var._grad_var = g if prev is None else _add(prev, g, double)
            var._loss_scale = scale


def run_backward(root_nodes: list[Any], root_grads: list[Any], retain_grad: bool,
                 enable_double_backprop: bool, loss_scale: float | None,
                 targets: list[Any] | None = None) -> dict[Any, Any]:
    """Propagate ``root_grads`` from ``root_nodes`` through the graph.

    Args:
        root_nodes: variable nodes to start from.
        root_grads: their gradient variables (None entries are skipped).
        retain_grad: store the gradients of intermediate variables on them.
        enable_double_backprop: record the backward computation as a graph.
        loss_scale: recorded on leaf variables so update rules can undo it.
        targets: when given, only these nodes' gradients are computed and
            returned, and leaf variables are not touched.

    Returns:
        The gradients of the target nodes (when ``targets`` is given).
    """
    bp = _BackwardPass(root_nodes, root_grads, retain_grad, enable_double_backprop,
                       loss_scale, targets)
    # backward methods see the NumPy/CuPy arrays of Variables over ChainerX arrays
    fallback = _chainerx_bridge.active
    if fallback:
        _chainerx_bridge.mode.depth += 1
    try:
        with using_config('enable_backprop', enable_double_backprop), \
                _deferred_grad.enabling():
            bp.walk()
            if targets is not None:
                return bp.target_grads(targets)
            bp.store_leaf_grads()
    finally:
        if fallback:
            _chainerx_bridge.mode.depth -= 1
    return {}


def _add_stack_trace(error: Exception, func: Any) -> None:
    """Append to ``error``'s message where ``func`` was applied (debug mode)."""
    stack = ''.join(traceback.format_list(func.stack[:-1]))
    text = (f'{error.args[0] if error.args else ""}\n\nStacktrace of the function '
            f'{func.label} (where it was applied) is below:\n{stack}')
    error.args = (text, *error.args[1:])


def ones_grad(data: Any, loss_scale: float | None = None) -> Any:
    """The initial gradient of a scalar output: ones (times ``loss_scale``), as a Variable."""
    g = chainer.backend.get_array_module(data).ones_like(data)
    if loss_scale is not None:
        g *= loss_scale
    return chainer.Variable._new(g, False)


def output_grads(outputs: Any, grad_outputs: Any, default: Any) -> list[Any]:
    """Validate ``outputs``/``grad_outputs`` and return one gradient Variable per output.

    A missing gradient is ``default(y)`` (which may be None: that output starts no
    gradient); arrays are wrapped in Variables.

    Raises:
        TypeError: when ``outputs`` or ``grad_outputs`` is not a tuple or list.
        ValueError: when the lengths differ.
    """
    if not isinstance(outputs, (tuple, list)):
        raise TypeError('outputs must be a tuple or a list of Variables')
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif not isinstance(grad_outputs, (tuple, list)):
        raise TypeError('grad_outputs must be a tuple or a list (or None)')
    elif len(grad_outputs) != len(outputs):
        raise ValueError(f'grad_outputs must have one entry per output: got '
                         f'{len(grad_outputs)} for {len(outputs)} outputs')
    grads = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            gy = default(y)
        elif not isinstance(gy, chainer.Variable):
            # (_init_unchecked: a ChainerX array is seen through to its NumPy/CuPy array)
            gy = chainer.Variable._init_unchecked(gy, requires_grad=False)
        grads.append(gy)
    return grads


def backward_from(var: Any, retain_grad: bool, enable_double_backprop: bool,
                  loss_scale: float | None) -> None:
    """Implement :meth:`Variable.backward`."""
    if var._data is None:
        raise RuntimeError('backward() of a Variable without data')
    node = var._node
    creator = node.creator_node
    if creator is not None and creator._old_style_grad:
        creator.raise_error()
    gv = var._grad_var
    if gv is None and var._data.size == 1:
        if var._data.ndim != 0:
            warnings.warn(
                'Treating a variable with only one element as a scalar in '
                'Variable.backward is deprecated: a scalar variable must be 0-dimensional '
                '(apply chainer.functions.squeeze), or set its grad explicitly',
                DeprecationWarning, stacklevel=3)
        var._grad_var = gv = ones_grad(var._data, loss_scale)
    if creator is None:
        return
    if gv is None:
        # v7 propagates nothing from a root without a gradient (code relies on backward()
        # not raising here); the warning tells the user that no gradient was computed
        warnings.warn(
            f'backward() of a Variable of shape {var._data.shape} without its grad computes '
            'no gradient: only a Variable of size 1 defaults to ones; set y.grad (e.g. to '
            'ones) first, or use chainer.backward([y], [gy])', RuntimeWarning, stacklevel=3)
        return
    run_backward([node], [gv], retain_grad, enable_double_backprop, loss_scale)
    if not retain_grad:
        # the output's gradient is consumed by the pass (as in Chainer v6 and later)
        var._grad_var = None


def unchain_backward(node: Any) -> None:
    """Remove every creator link reachable backward from ``node``."""
    func = node.creator_node
    node.creator_node = None
    stack = [func] if func is not None else []
    seen = set(stack)
    while stack:
        f = stack.pop()
        for n in f.inputs:
            c = n.creator_node
            if c is not None:
                n.creator_node = None
                if c not in seen:
                    seen.add(c)
                    stack.append(c)




def backward(outputs: Any, grad_outputs: Any = None, **kwargs: Any) -> None:
    """Run backpropagation from several outputs at once (v7 defined ``chainer.backward`` here).

    It is :func:`chainer.backward`; see there for the arguments.
    """
    from chainer import function_node

    function_node.backward(outputs, grad_outputs, **kwargs)
