"""Tree-LSTM units (N-ary and child-sum) as an activation function."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.activation.sigmoid import sigmoid, sigmoid_array
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.concat import concat
from chainer.functions.array.reshape import reshape
from chainer.functions.rnn.lstm import _zeros_like
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _blocks(x: Any, n: int) -> list[Any]:
    """Split the second axis of ``x`` into ``n`` consecutive blocks."""
    r = x.reshape((x.shape[0], n, x.shape[1] // n) + x.shape[2:])
    return [r[:, j] for j in range(n)]


def _gates(x: Any, n: int, xp: Any) -> tuple[Any, Any, Any, list[Any]]:
    """The activated gates ``a, i, o`` and forget gates ``[f_1, ..., f_n]`` of array ``x``."""
    gates = _blocks(x, 3 + n)
    return (xp.tanh(gates[0]), sigmoid_array(gates[1], xp), sigmoid_array(gates[2], xp),
            [sigmoid_array(fk, xp) for fk in gates[3:]])


class TreeLSTM(FunctionNode):
    """Tree-LSTM cell from ``(c_1, ..., c_N, x)`` to ``(c, h)``; gates a, i, o, f_1..f_N."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'TreeLSTM'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # as v7 orders the checks (inputs unnamed: in_types[i]), so that the same
        # failure is reported
        type_check.expect(in_types.size() >= 2)
        n = type_check.eval(in_types.size()) - 1
        x_type = in_types[n]
        type_check.expect(x_type.ndim >= 2)
        for k in range(n):
            c_type = in_types[k]
            type_check.expect(
                c_type.dtype.kind == 'f',
                x_type.dtype == c_type.dtype,
                c_type.ndim >= 2,
                c_type.ndim == x_type.ndim,
                x_type.shape[0] == c_type.shape[0],
                x_type.shape[1] == (3 + n) * c_type.shape[1],
            )
            type_check.expect(x_type.shape[2:] == c_type.shape[2:])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        cs, x = inputs[:-1], inputs[-1]
        xp = backend.get_array_module(x)
        a, i, o, fs = _gates(x, len(cs), xp)
        c = a * i
        for ck, fk in zip(cs, fs):
            c = c + fk * ck
        h = o * xp.tanh(c)
        self.retain_outputs((0,))
        return utils.force_array(c, x.dtype), utils.force_array(h, x.dtype)

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return self._backward_graph(grad_outputs)
        inputs = [v.array for v in retained_inputs(self)]
        cs, x = inputs[:-1], inputs[-1]
        c = self.output_data[0]
        gc, gh = (None if g is None else g.array for g in grad_outputs)
        xp = backend.get_array_module(x)
        a, i, o, fs = _gates(x, len(cs), xp)
        co = xp.tanh(c)
        g = xp.zeros(c.shape, c.dtype) if gc is None else gc
        if gh is not None:
            g = g + gh * o * (1 - co * co)
        gx = xp.empty(x.shape, x.dtype)
        gxs = _blocks(gx, 3 + len(cs))
        gxs[0][...] = g * i * (1 - a * a)
        gxs[1][...] = g * a * i * (1 - i)
        gxs[2][...] = 0 if gh is None else gh * co * o * (1 - o)
        for gxk, ck, fk in zip(gxs[3:], cs, fs):
            gxk[...] = g * ck * fk * (1 - fk)
        return tuple(g * fk for fk in fs) + (gx,)

    def _backward_graph(self, grad_outputs: GradOutputs) -> GradInputs:

        inputs = retained_inputs(self)
        cs, x = inputs[:-1], inputs[-1]
        c, = retained_outputs(self)
        gc, gh = grad_outputs
        gates = _blocks(x, 3 + len(cs))
        a = tanh(gates[0])
        i = sigmoid(gates[1])
        o = sigmoid(gates[2])
        fs = [sigmoid(fk) for fk in gates[3:]]
        co = tanh(c)
        g = gc
        if gh is not None:
            t = gh * o * (1 - co * co)
            g = t if g is None else g + t
        assert g is not None  # backward runs only when gc or gh is given
        parts = [g * i * (1 - a * a), g * a * i * (1 - i),
                 _zeros_like(o) if gh is None else gh * co * o * (1 - o)]
        parts += [g * ck * fk * (1 - fk) for ck, fk in zip(cs, fs)]
        parts = [reshape(p, p.shape[:1] + (1,) + p.shape[1:]) for p in parts]
        gx = reshape(concat(parts, 1), x.shape)
        return tuple(g * fk for fk in fs) + (gx,)


@guarded
def tree_lstm(*inputs: VariableOrArray) -> tuple[Variable, Variable]:
    """Tree-LSTM units (N-ary and child-sum) as an activation function.

    The inputs are the children's cell states ``c_1, ..., c_N`` followed by the
    gate sources ``x``, whose second axis is ``3 + N`` times as long as that of
    the cells and holds, in consecutive blocks, ``a, i, o, f_1, ..., f_N``. Then::

        c = tanh(a) * sigmoid(i) + sum_n c_n * sigmoid(f_n)
        h = tanh(c) * sigmoid(o)

    Args:
        *inputs: ``c_1, ..., c_N`` (each of shape ``(B, H, ...)``) and ``x``
            (of shape ``(B, (3 + N) H, ...)``).

    Returns:
        ``(c, h)``, each of shape ``(B, H, ...)``.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes do not fit.
    """
    c, h = TreeLSTM().apply(inputs)
    return c, h
