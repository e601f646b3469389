"""S-LSTM units: an LSTM cell merging two children (binary trees)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.function import Function
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.functions.activation.tanh import tanh
from chainer.functions.rnn.lstm import (
    _check_cell_and_input,
    _interleaved,
    _join_interleaved,
    _zeros_like,
    grads_through,
)
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _gates(x1: Any, x2: Any, xp: Any) -> tuple[Any, ...]:
    """The activated gates ``a1, i1, f1, a2, i2, f2, o`` of the children's arrays ``x1, x2``.

    Each child has its own input and forget gates; only the output gate is shared.
    """
    a1, i1, f1, o1 = _interleaved(x1, 4)
    a2, i2, f2, o2 = _interleaved(x2, 4)
    return (xp.tanh(a1), sigmoid_array(i1, xp), sigmoid_array(f1, xp),
            xp.tanh(a2), sigmoid_array(i2, xp), sigmoid_array(f2, xp),
            sigmoid_array(o1 + o2, xp))


class SLSTM(FunctionNode):
    """S-LSTM cell from ``(c_prev1, c_prev2, x1, x2)`` to ``(c, h)``."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'SLSTM'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1, c2, x1, x2 = in_types
        _check_cell_and_input(c1, x1, 4)
        type_check.expect(c2.dtype == c1.dtype, x2.dtype == x1.dtype,
                          c2.shape == c1.shape, x2.shape == x1.shape,
                          x1.shape[0] == c1.shape[0])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2, 3))
        c1, c2, x1, x2 = inputs
        xp = backend.get_array_module(x1)
        a1, i1, f1, a2, i2, f2, o = _gates(x1, x2, xp)
        c = a1 * i1 + a2 * i2 + f1 * c1 + f2 * c2
        h = o * xp.tanh(c)
        self.retain_outputs((0,))
        return utils.force_array(c, x1.dtype), utils.force_array(h, x1.dtype)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        c1, c2, x1, x2 = retained_inputs(self)
        c, = retained_outputs(self)
        gc, gh = grad_outputs
        if chainer.config.enable_backprop:
            return _grad_graph(c1, c2, x1, x2, c, gc, gh)
        return _grad_arrays(c1.array, c2.array, x1.array, x2.array, c.array,
                            None if gc is None else gc.array, None if gh is None else gh.array)


def _grad_arrays(c1: Any, c2: Any, x1: Any, x2: Any, c: Any, gc: Any, gh: Any) -> Any:
    """``(gc_prev1, gc_prev2, gx1, gx2)`` of :class:`SLSTM` on arrays."""
    xp = backend.get_array_module(x1)
    a1, i1, f1, a2, i2, f2, o = _gates(x1, x2, xp)
    co = xp.tanh(c)
    g = xp.zeros(c.shape, c.dtype) if gc is None else gc
    if gh is not None:
        g = g + gh * o * (1 - co * co)
    go = 0 if gh is None else gh * co * o * (1 - o)
    gx1 = xp.empty(x1.shape, x1.dtype)
    gx2 = xp.empty(x2.shape, x2.dtype)
    for gx, a, i, f, cp in ((gx1, a1, i1, f1, c1), (gx2, a2, i2, f2, c2)):
        ga_, gi_, gf_, go_ = _interleaved(gx, 4)
        ga_[...] = g * i * (1 - a * a)
        gi_[...] = g * a * i * (1 - i)
        gf_[...] = g * cp * f * (1 - f)
        go_[...] = go
    return g * f1, g * f2, gx1, gx2


def _grad_graph(c1: Any, c2: Any, x1: Any, x2: Any, c: Any, gc: Any, gh: Any) -> Any:
    """``(gc_prev1, gc_prev2, gx1, gx2)`` of :class:`SLSTM` as differentiable functions."""
    a1, i1, f1, o1 = _interleaved(x1, 4)
    a2, i2, f2, o2 = _interleaved(x2, 4)
    a1, i1, f1 = tanh(a1), sigmoid(i1), sigmoid(f1)
    a2, i2, f2 = tanh(a2), sigmoid(i2), sigmoid(f2)
    o = sigmoid(o1 + o2)
    co = tanh(c)
    g = gc
    if gh is not None:
        t = gh * o * (1 - co * co)
        g = t if g is None else g + t
    go = _zeros_like(o) if gh is None else gh * co * o * (1 - o)
    gx1 = _join_interleaved(
        [g * i1 * (1 - a1 * a1), g * a1 * i1 * (1 - i1), g * c1 * f1 * (1 - f1), go],
        x1.shape)
    gx2 = _join_interleaved(
        [g * i2 * (1 - a2 * a2), g * a2 * i2 * (1 - i2), g * c2 * f2 * (1 - f2), go],
        x2.shape)
    return g * f1, g * f2, gx1, gx2


class SLSTMGrad(Function):
    """The gradient of :class:`SLSTM` as a function: ``(c_prev1, c_prev2, x1, x2, c, gc,
    gh)`` to ``(gc_prev1, gc_prev2, gx1, gx2)`` (an old-style Function, as in v7)."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        grads = _grad_arrays(*inputs)
        return tuple(utils.force_array(g, inputs[0].dtype) for g in grads)

    def backward(self, inputs: tuple[NdArray, ...],
                 grad_outputs: tuple[NdArray | None, ...]) -> tuple[NdArray | None, ...]:
        return grads_through(_grad_graph, inputs, grad_outputs)


@guarded
def slstm(c_prev1: VariableOrArray, c_prev2: VariableOrArray, x1: VariableOrArray,
          x2: VariableOrArray) -> tuple[Variable, Variable]:
    """S-LSTM units as an activation function (LSTM over binary trees).

    ``x1`` and ``x2`` hold the gate sources from the two children, laid out as
    in :func:`lstm` (``a, i, f, o`` interleaved along the second axis, four times
    as long as that of the cells). Then::

        c = tanh(a1) * sigmoid(i1) + tanh(a2) * sigmoid(i2)
            + c_prev1 * sigmoid(f1) + c_prev2 * sigmoid(f2)
        h = tanh(c) * sigmoid(o1 + o2)

    Each child keeps its own input gate (as Chainer 7 computes it); only the
    output gate adds the two children's sources.

    Args:
        c_prev1: the cell state of the first child, of shape ``(B, H, ...)``.
        c_prev2: the cell state of the second child, of the same shape.
        x1: the gate sources from the first child, of shape ``(B, 4H, ...)``.
        x2: the gate sources from the second child, of the same shape.

    Returns:
        ``(c, h)``, each of shape ``(B, H, ...)``.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
    """
    c, h = SLSTM().apply((c_prev1, c_prev2, x1, x2))
    return c, h
