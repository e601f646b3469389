"""One backward step of a function on lists of gradients (Chainer v7's helper module).

This project's backward pass (:mod:`chainer._backprop`) keeps one gradient per node;
code written against v7's ``chainer._backprop_utils`` drives a single function's
backward with the gradients of each input node gathered in a list. Both give the
same gradients.
"""

from __future__ import annotations

from typing import Any

import chainer
from chainer.configuration import config, using_config


def _reduce(grad_list: list[Any]) -> Any:
    """The sum of a list of gradient Variables (None for an empty list)."""
    if not grad_list:
        return None
    if len(grad_list) == 1:
        return grad_list[0]
    return chainer.functions.add(*grad_list)


def backprop_step(func: Any, target_input_indexes: Any, grad_outputs: Any,
                  grad_inputs: dict[Any, list[Any]], is_debug: bool) -> None:
    """Run ``func``'s backward and add its input gradients to ``grad_inputs``.

    Args:
        func: an applied :class:`~chainer.FunctionNode`.
        target_input_indexes: the indexes of the inputs that need gradients.
        grad_outputs: the gradients of the outputs (None for none).
        grad_inputs: for each input node, the list of its gradients so far; updated
            in place. Unless ``config.lazy_grad_sum``, each list is summed into one
            gradient afterwards.
        is_debug: run the backward in debug mode (its results are checked).

    A function overriding ``backward_accumulate`` receives the gradients so far,
    summed (a node given at several positions gets them at its first one), and its
    results replace them.
    """
    indexes = tuple(target_input_indexes)
    grad_outputs = tuple(grad_outputs)
    nodes = [func.inputs[i] for i in indexes]
    with using_config('debug', is_debug):
        if func._overrides_accumulate:
            first: dict[Any, int] = {}
            prev: list[Any] = []
            for k, node in enumerate(nodes):
                if node in first:
                    prev.append(None)
                else:
                    first[node] = k
                    prev.append(_reduce(grad_inputs.get(node, [])))
            gxs = func.backward_accumulate(indexes, grad_outputs, tuple(prev))
            if len(gxs) != len(indexes):
                raise ValueError(f'{func.label}: number of gradients returned from '
                                 f'backward_accumulate is incorrect: {len(gxs)} for '
                                 f'{len(indexes)} targets')
            for k, (node, gx) in enumerate(zip(nodes, gxs)):
                grads = grad_inputs.setdefault(node, [])
                if first[node] == k:
                    grads.clear()  # accumulated into gx
                if gx is not None:
                    grads.append(gx)
        else:
            gxs = func._run_backward(indexes, grad_outputs, bool(chainer._n_function_hooks))
            for node, gx in zip(nodes, gxs):
                if gx is not None:
                    grad_inputs.setdefault(node, []).append(gx)
    if not config.lazy_grad_sum:
        for node in set(nodes):
            summed = grad_inputs.get(node)
            if summed and len(summed) > 1:
                summed[:] = [_reduce(summed)]


class GradTable:
    """Gradients of variable nodes, each kept as a list to be summed when it is taken.

    Chainer v7's backward pass kept its gradients in such a table; code driving
    :func:`backprop_step` by hand uses it for ``grad_inputs``.

    Args:
        accumulate_grad_inputs: when True, the list of a leaf node (one without a
            creator) seen for the first time starts with the node's current
            gradient (``grad_var``), so that new gradients add to it.
    """

    def __init__(self, accumulate_grad_inputs: bool = False) -> None:
        self.grads: dict[Any, list[Any]] = {}
        self._load_if_new = accumulate_grad_inputs

    def __setitem__(self, node: Any, grad: Any) -> None:
        """Replace the gradients of ``node`` by ``grad`` (None clears them)."""
        if node is None:
            raise ValueError('GradTable: node must not be None')
        self.grads[node] = [] if grad is None else [grad]

    def __contains__(self, node: Any) -> bool:
        return node in self.grads

    def accumulate(self, node: Any, grad: Any) -> None:
        """Add ``grad`` (unless None) to the gradients of ``node``."""
        if grad is not None:
            self.get_as_list(node).append(grad)

    def get_as_list(self, node: Any) -> list[Any]:
        """The (mutable) list of gradients of ``node``, created when it is new."""
        if node is None:
            raise ValueError('GradTable: node must not be None')
        grads = self.grads.get(node)
        if grads is None:
            grads = []
            if self._load_if_new and node.creator_node is None:
                current = node.grad_var
                if current is not None:
                    grads.append(current)
            self.grads[node] = grads
        return grads

    def pop(self, node: Any) -> Any:
        """Remove ``node`` and return the sum of its gradients (None when it has none)."""
        if node is None:
            return None
        return _reduce(self.grads.pop(node, []))

    def assert_no_grad(self) -> None:
        """Raise AssertionError if some node still holds a gradient."""
        for node, grads in self.grads.items():
            if grads:
                raise AssertionError(f'GradTable: {node!r} still holds {len(grads)} gradient(s)')
