"""Long short-term memory units as an activation function."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.function import Function
from chainer.function_node import FunctionNode, grad
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.concat import concat
from chainer.functions.array.reshape import reshape
from chainer.functions.rnn import _lstm_kernels
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _interleaved(x: Any, n: int) -> list[Any]:
    """The ``n`` gate inputs of ``x``: unit ``k`` of gate ``j`` is ``x[:, n * k + j]``."""
    r = x.reshape((x.shape[0], x.shape[1] // n, n) + x.shape[2:])
    return [r[:, :, j] for j in range(n)]


def _gates(x: Any, xp: Any) -> tuple[Any, Any, Any, Any]:
    """The activated gates ``tanh(a), sigmoid(i), sigmoid(f), sigmoid(o)`` of array ``x``."""
    a, i, f, o = _interleaved(x, 4)
    return xp.tanh(a), sigmoid_array(i, xp), sigmoid_array(f, xp), sigmoid_array(o, xp)


def _zeros_like(v: Any) -> Variable:
    xp = backend.get_array_module(v.array if isinstance(v, Variable) else v)
    return Variable(xp.zeros(v.shape, v.dtype), requires_grad=False)


def _join_interleaved(gates: list[Any], shape: tuple[int, ...]) -> Variable:
    """The inverse of :func:`_interleaved` on Variables (differentiable)."""

    parts = [reshape(g, g.shape[:2] + (1,) + g.shape[2:]) for g in gates]
    return reshape(concat(parts, 2), shape)


def _check_cell_and_input(c_type: Any, x_type: Any, n_gates: int) -> None:
    type_check.expect(
        c_type.dtype.kind == 'f',
        x_type.dtype == c_type.dtype,
        c_type.ndim >= 2,
        x_type.ndim == c_type.ndim,
        x_type.shape[1] == n_gates * c_type.shape[1],
    )
    type_check.expect(x_type.shape[2:] == c_type.shape[2:])


class LSTM(FunctionNode):
    """LSTM cell update from ``(c_prev, x)`` to ``(c, h)``; gates a, i, f, o interleaved."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'LSTM'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # as v7 orders and names the checks, so that the same failure is reported
        type_check.argname(in_types, ('c', 'x'))
        c_type, x_type = in_types
        type_check.expect(
            c_type.dtype.kind == 'f',
            x_type.dtype == c_type.dtype,
            c_type.ndim >= 2,
            x_type.ndim >= 2,
            c_type.ndim == x_type.ndim,
            x_type.shape[0] <= c_type.shape[0],
            x_type.shape[1] == 4 * c_type.shape[1],
        )
        type_check.expect(x_type.shape[2:] == c_type.shape[2:])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        c_prev, x = inputs
        xp = backend.get_array_module(x)
        b = x.shape[0]
        if _lstm_kernels.usable(x):
            c = xp.empty(c_prev[:b].shape, x.dtype)
            h = xp.empty_like(c)
            za, zi, zf, zo = _interleaved(x, 4)
            _lstm_kernels.forward(za, zi, zf, zo, c_prev[:b], c, h)
        else:
            a, i, f, o = _gates(x, xp)
            c = a * i + f * c_prev[:b]
            h = o * xp.tanh(c)
        if b < c_prev.shape[0]:
            c = xp.concatenate((c, c_prev[b:]), axis=0)
        self.retain_outputs((0,))
        return utils.force_array(c, x.dtype), utils.force_array(h, x.dtype)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        c_prev, x = retained_inputs(self)
        c_next, = retained_outputs(self)
        gc_next, gh = grad_outputs
        if chainer.config.enable_backprop:
            return _grad_graph(c_prev, x, c_next, gc_next, gh)
        return _grad_arrays(c_prev.array, x.array, c_next.array,
                            None if gc_next is None else gc_next.array,
                            None if gh is None else gh.array)


def _grad_arrays(c_prev: Any, x: Any, c_next: Any, gc_next: Any, gh: Any) -> tuple[Any, Any]:
    """``(gc_prev, gx)`` of :class:`LSTM` on arrays (``gc_next``, ``gh`` may be None)."""
    xp = backend.get_array_module(x)
    b = x.shape[0]
    if _lstm_kernels.usable(x):
        return _grad_arrays_gpu(c_prev, x, c_next, gc_next, gh)
    a, i, f, o = _gates(x, xp)
    co = xp.tanh(c_next[:b])
    gc = 0 if gc_next is None else gc_next[:b]
    if gh is not None:
        gc = gc + gh * o * (1 - co * co)
    gx = xp.empty(x.shape, x.dtype)
    ga, gi, gf, go = _interleaved(gx, 4)
    ga[...] = gc * i * (1 - a * a)
    gi[...] = gc * a * i * (1 - i)
    gf[...] = gc * c_prev[:b] * f * (1 - f)
    go[...] = 0 if gh is None else gh * co * o * (1 - o)
    gc_prev = xp.empty(c_prev.shape, c_prev.dtype)
    gc_prev[:b] = gc * f
    gc_prev[b:] = 0 if gc_next is None else gc_next[b:]
    return gc_prev, gx


def _grad_arrays_gpu(c_prev: Any, x: Any, c_next: Any, gc_next: Any,
                     gh: Any) -> tuple[Any, Any]:
    """:func:`_grad_arrays` by one fused kernel."""
    xp = backend.get_array_module(x)
    b = x.shape[0]
    gx = xp.empty(x.shape, x.dtype)
    gc_prev = xp.empty(c_prev.shape, c_prev.dtype)
    za, zi, zf, zo = _interleaved(x, 4)
    ga, gi, gf, go = _interleaved(gx, 4)
    _lstm_kernels.backward(za, zi, zf, zo, c_prev[:b], c_next[:b],
                           None if gc_next is None else gc_next[:b], gh,
                           ga, gi, gf, go, gc_prev[:b])
    gc_prev[b:] = 0 if gc_next is None else gc_next[b:]
    return gc_prev, gx


def _grad_graph(c_prev: Any, x: Any, c_next: Any, gc_next: Any, gh: Any) -> tuple[Any, Any]:
    """``(gc_prev, gx)`` of :class:`LSTM` as differentiable functions of Variables."""

    b, n = x.shape[0], c_prev.shape[0]
    a, i, f, o = _interleaved(x, 4)
    a = tanh(a)
    i = sigmoid(i)
    f = sigmoid(f)
    o = sigmoid(o)
    c = c_next[:b] if b < n else c_next
    co = tanh(c)
    gc = None
    if gc_next is not None:
        gc = gc_next[:b] if b < n else gc_next
    if gh is not None:
        t = gh * o * (1 - co * co)
        gc = t if gc is None else gc + t
    if gc is None:
        gc = _zeros_like(c)
    cp = c_prev[:b] if b < n else c_prev
    go = _zeros_like(o) if gh is None else gh * co * o * (1 - o)
    gx = _join_interleaved(
        [gc * i * (1 - a * a), gc * a * i * (1 - i), gc * cp * f * (1 - f), go], x.shape)
    gc_prev = gc * f
    if b < n:
        rest = _zeros_like(c_prev[b:]) if gc_next is None else gc_next[b:]
        gc_prev = concat([gc_prev, rest], 0)
    return gc_prev, gx


def grads_through(graph: Callable[..., Sequence[Variable]], inputs: Sequence[NdArray],
                  grad_outputs: Sequence[NdArray | None]) -> tuple[NdArray | None, ...]:
    """The gradient arrays of ``graph`` (a differentiable function of Variables) at
    the arrays ``inputs`` for the output gradient arrays ``grad_outputs``."""

    xs = [Variable(a) for a in inputs]
    with chainer.force_backprop_mode():
        ys = graph(*xs)
    pairs = [(y, g) for y, g in zip(ys, grad_outputs) if g is not None]
    gxs = grad([y for y, _ in pairs], xs, [Variable(g) for _, g in pairs]) if pairs else (
        [None] * len(xs))
    return tuple(None if g is None else g.array for g in gxs)


class LSTMGrad(Function):
    """The gradient of :class:`LSTM` as a function: ``(c_prev, x, c_next, gc, gh)`` to
    ``(gc_prev, gx)`` (an old-style Function, as in v7; its own backward is exact)."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, NdArray]:
        c_prev, x, c_next, gc, gh = inputs
        gc_prev, gx = _grad_arrays(c_prev, x, c_next, gc, gh)
        return utils.force_array(gc_prev, c_prev.dtype), utils.force_array(gx, x.dtype)

    def backward(self, inputs: tuple[NdArray, ...],
                 grad_outputs: tuple[NdArray | None, ...]) -> tuple[NdArray | None, ...]:
        return grads_through(_grad_graph, inputs, grad_outputs)


@guarded
def lstm(c_prev: VariableOrArray, x: VariableOrArray) -> tuple[Variable, Variable]:
    """Long short-term memory units as an activation function.

    ``x`` holds the sources of the four gates along its second axis, which must
    be four times as long as that of ``c_prev``. As in Chainer, the four are
    interleaved: unit ``k`` of the cell input ``a``, input gate ``i``, forget
    gate ``f`` and output gate ``o`` are ``x[:, 4k]``, ``x[:, 4k + 1]``,
    ``x[:, 4k + 2]`` and ``x[:, 4k + 3]``. Then::

        c = tanh(a) * sigmoid(i) + c_prev * sigmoid(f)
        h = tanh(c) * sigmoid(o)

    The batch of ``x`` may be smaller than that of ``c_prev`` (sequences sorted
    by decreasing length): only ``c[:len(x)]`` is updated, the rest of
    ``c_prev`` is passed through, and ``h`` has ``len(x)`` rows.

    Args:
        c_prev: the previous cell state, of shape ``(B, H, ...)``.
        x: the gate sources, of shape ``(b, 4H, ...)`` with ``b <= B``.

    Returns:
        ``(c, h)``: the new cell state ``(B, H, ...)`` and the output ``(b, H, ...)``.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> c_prev = np.zeros((1, 2), np.float32)
        >>> x = np.zeros((1, 8), np.float32)
        >>> c, h = F.lstm(c_prev, x)
        >>> c.shape, h.shape
        ((1, 2), (1, 2))
        >>> print(h.array)
        [[0. 0.]]
    """
    c, h = LSTM().apply((c_prev, x))
    return c, h
