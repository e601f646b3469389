"""Private building blocks shared by the loss functions.

Input helpers (``type_check`` for losses written as compositions, ``reduce``
validation), a stable log-softmax on arrays, and a square root whose gradient
stays finite at zero.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chainer import backend, utils
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


def as_array(x: Any) -> Any:
    """The array of a Variable, or ``x`` itself."""
    return x.array if isinstance(x, Variable) else x


class _Label:
    def __init__(self, label: str) -> None:
        self.label = label


def check_types(label: str, names: Sequence[str], arrays: Sequence[Any],
                check: Callable[..., None]) -> None:
    """Run ``check(*in_types)`` with type_check on ``arrays`` (when enabled).

    Used by losses written as compositions, so that they report bad inputs
    with :class:`~chainer.utils.type_check.InvalidType` like a FunctionNode.
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


def check_reduce(reduce: str, allowed: Sequence[str]) -> None:
    """Raise ValueError unless ``reduce`` is one of ``allowed``."""
    if reduce not in allowed:
        choices = ', '.join(repr(a) for a in allowed)
        raise ValueError(f'only {choices} are valid for reduce, but {reduce!r} is given')


def log_softmax_array(x: Any, axis: int = 1) -> Any:
    """``x - logsumexp(x, axis)`` on arrays, shifted by the maximum (stable)."""
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    shifted = x - m
    return shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))


class SafeSqrt(FunctionNode):
    """``sqrt(x)`` for ``x >= 0`` whose gradient is 0 (not inf) at ``x == 0``."""

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(backend.get_array_module(x).sqrt(x), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        y, = self.get_retained_outputs()
        zero = (y.array == 0).astype(y.dtype)
        # 0.5 / y where y > 0, and 0 where y == 0 (y + zero never vanishes)
        return grad_outputs[0] * (1 - zero) * 0.5 / (y + zero),


def safe_sqrt(x: Any) -> Variable:
    """Differentiable square root with a zero gradient at zero."""
    return SafeSqrt().apply((x,))[0]
