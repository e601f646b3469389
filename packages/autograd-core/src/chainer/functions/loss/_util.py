"""Private building blocks shared by the loss functions.

Small differentiable operations (softplus, log-softmax, log-sum-exp, concat,
log(1 - exp(x))) whose backward is written with differentiable functions, so
the losses built from them support double backprop, and a helper to run
``type_check`` on the inputs of losses that are compositions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chainer import backend, utils
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.math.exponential import exp
from chainer.functions.math.sum import sum as _sum
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


def _keepdims_shape(shape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    return shape[:axis] + (1,) + shape[axis + 1:]


def _expand(gy: Variable, shape: tuple[int, ...], axis: int) -> Variable:
    """Broadcast ``gy`` (reduced over ``axis``) back to ``shape``."""
    return broadcast_to(reshape(gy, _keepdims_shape(shape, axis)), shape)


class Softplus(FunctionNode):
    """``log(1 + exp(x))``, computed as ``max(x, 0) + log1p(exp(-|x|))``."""

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.maximum(x, 0) + xp.log1p(xp.exp(-abs(x))), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sigmoid(x),


def softplus(x: Any) -> Variable:
    """Differentiable, overflow-free ``log(1 + exp(x))``."""
    return Softplus().apply((x,))[0]


def log_softmax_array(x: Any, axis: int = 1) -> Any:
    """``x - logsumexp(x, axis)`` on arrays, shifted by the maximum (stable)."""
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    shifted = x - m
    return shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))


class LogSoftmax(FunctionNode):
    """``log(softmax(x))`` along ``axis``."""

    def __init__(self, axis: int = 1) -> None:
        self.axis = axis

    def forward(self, inputs: Any) -> Any:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(log_softmax_array(x, self.axis), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        s = _expand(_sum(gy, axis=self.axis), y.shape, self.axis)
        return gy - exp(y) * s,


def log_softmax(x: Any, axis: int = 1) -> Variable:
    """Differentiable log-softmax along ``axis``."""
    return LogSoftmax(axis).apply((x,))[0]


def logsumexp_array(x: Any, axis: int) -> Any:
    """``log(sum(exp(x), axis))`` on arrays; -inf rows stay -inf."""
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0)
    return xp.log(xp.exp(x - m).sum(axis=axis)) + m.squeeze(axis)


class LogSumExp(FunctionNode):
    """``log(sum(exp(x), axis))`` for one axis."""

    def __init__(self, axis: int) -> None:
        self.axis = axis

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(logsumexp_array(x, self.axis), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        return _expand(gy, x.shape, self.axis) * exp(x - _expand(y, x.shape, self.axis)),


def logsumexp(x: Any, axis: int) -> Variable:
    """Differentiable, stable log-sum-exp over one axis."""
    return LogSumExp(axis).apply((x,))[0]


class Log1mExp(FunctionNode):
    """``log(1 - exp(x))`` for ``x <= 0``, computed as ``log(-expm1(x))``."""

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log(-xp.expm1(x)), x.dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        # d/dx log(1 - e^x) = -e^x / (1 - e^x) = -exp(x - y)
        return -grad_outputs[0] * exp(x - y),


def log1mexp(x: Any) -> Variable:
    """Differentiable ``log(1 - exp(x))``."""
    return Log1mExp().apply((x,))[0]


class Concat(FunctionNode):
    """Concatenate the inputs along ``axis``."""

    def __init__(self, axis: int = 0) -> None:
        self.axis = axis

    def forward(self, inputs: Any) -> Any:
        xp = backend.get_array_module(*inputs)
        self._sizes = [x.shape[self.axis] for x in inputs]
        return xp.concatenate(inputs, axis=self.axis),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        gy, = grad_outputs
        offsets = [0]
        for s in self._sizes:
            offsets.append(offsets[-1] + s)
        lead = (slice(None),) * self.axis
        return tuple(get_item(gy, lead + (slice(offsets[i], offsets[i + 1]),))
                     for i in indexes)


def concat(xs: Sequence[Any], axis: int = 0) -> Variable:
    """Differentiable concatenation."""
    return Concat(axis).apply(tuple(xs))[0]


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
