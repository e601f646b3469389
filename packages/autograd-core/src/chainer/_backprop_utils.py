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
            prev = []
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
            grads = grad_inputs.get(node)
            if grads and len(grads) > 1:
                grads[:] = [_reduce(grads)]
