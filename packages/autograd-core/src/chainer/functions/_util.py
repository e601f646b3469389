"""Private helpers shared by every category of functions (input type checks)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chainer.configuration import config
from chainer.utils import type_check


def expect_float(in_types: Any, names: tuple[str, ...] = ('x',)) -> None:
    """Type-check that every input is a floating-point array (and all share a dtype)."""
    type_check.argname(in_types, names)
    for t in in_types:
        type_check.expect(t.dtype.kind == 'f')
    for t in in_types[1:]:
        type_check.expect(in_types[0].dtype == t.dtype)


class _Label:
    def __init__(self, label: str) -> None:
        self.label = label


def check_types(label: str, names: Sequence[str], arrays: Sequence[Any],
                check: Callable[..., None]) -> None:
    """Run ``check(*in_types)`` with type_check on ``arrays`` (when enabled).

    For functions written as compositions of others, so that they report bad
    inputs like a FunctionNode: TypeError for a non-array, and
    :class:`~chainer.utils.type_check.InvalidType` named after ``label``.
    """
    if not config.type_check:
        return
    for name, a in zip(names, arrays):
        if not hasattr(a, 'dtype') or not hasattr(a, 'shape'):
            raise TypeError(f'{label}: {name} must be a Variable or an array, '
                            f'not {type(a).__name__}')
    in_types = type_check.get_types(arrays, 'in_types', False)
    type_check.argname(in_types, tuple(names))
    with type_check.get_function_check_context(_Label(label)):
        check(*in_types)


def grad_by_recompute(node: Any, composed: Callable[..., Sequence[Any]], indexes: Sequence[int],
                      grad_outputs: Sequence[Any]) -> tuple[Any, ...]:
    """Differentiable gradients of ``node`` through a recomputation of its forward.

    For the backward of a fused FunctionNode when a graph of the backward is
    wanted (double backprop): ``composed`` recomputes the node's outputs from
    its retained inputs (all of them must be retained) with differentiable
    functions, and the gradients are taken through that graph. The inputs are
    passed through identity nodes first, so that the gradients are the node's
    own partial derivatives even when one input depends on another.

    Args:
        node: the FunctionNode whose backward this is.
        composed: function of the input Variables returning the output Variables.
        indexes: the input indexes whose gradients are wanted.
        grad_outputs: the output gradients (Variables or None).

    Returns:
        One gradient Variable (or None) per index.
    """
    from chainer.function_node import grad
    from chainer.functions.math.identity import identity

    inputs = [identity(v) for v in node.get_retained_inputs()]
    outputs = composed(*inputs)
    pairs = [(y, g) for y, g in zip(outputs, grad_outputs) if g is not None]
    if not pairs:
        return (None,) * len(indexes)
    return tuple(grad([y for y, _ in pairs], [inputs[i] for i in indexes],
                      [g for _, g in pairs], enable_double_backprop=True))
