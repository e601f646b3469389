"""A fused LSTM step for ``L.LSTM`` and ``L.StatelessLSTM``.

One node computes ``z = x Wu^T + b (+ h Wl^T)`` and the LSTM update of
:func:`chainer.functions.lstm` from it, so that a step costs one node instead
of four (two linears, an addition and the activation). The products are
computed as ``Wu @ x^T``: with a batch much smaller than the number of gate
units this is the faster orientation for BLAS, and the gate sources land in
one ``(4H, B)`` array that the lateral product is added into; the gates and
the states are then worked on in that transposed layout and returned as
transposed views (no copies). The backward pass uses the same layout; when a
graph of the backward is wanted (double backprop) it is rebuilt from the
differentiable functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, functions, internal
from chainer.function_node import FunctionNode
from chainer.links.rnn import _lstm_cell_kernels
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray


def _compiled(*arrays: Any) -> bool:
    """Whether the compiled CPU kernels (``_lstm_cell_kernels``) take these arrays: NumPy
    arrays of one float32/float64 dtype, with Numba on."""
    dtype = arrays[0].dtype
    return (all(type(a) is numpy.ndarray and a.dtype == dtype for a in arrays)
            and dtype in internal.jit_dtypes and internal.jit_enabled())


def _sigmoid_inplace(a: Any, xp: Any) -> None:
    """``a = sigmoid(a)`` in place (as ``tanh(a / 2) / 2 + 1 / 2``, without overflow)."""
    half = a.dtype.type(0.5)
    a *= half
    xp.tanh(a, out=a)
    a *= half
    a += half


class LSTMCell(FunctionNode):
    """``(c, h)`` of one LSTM step from ``(c_prev, x, Wu, b[, h_prev, Wl])``.

    The gate rows of ``Wu``, ``b`` and ``Wl`` are interleaved as in
    :func:`chainer.functions.lstm` (unit ``k`` of gates a, i, f, o at rows
    ``4k .. 4k + 3``). ``c_prev``, ``x`` and ``h_prev`` have the same batch.

    Args:
        lateral: whether ``h_prev`` and ``Wl`` are given.
    """

    def __init__(self, lateral: bool) -> None:
        self.lateral = lateral

    @property
    def label(self) -> str:
        return 'LSTMCell'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        try:
            self._check_fused(in_types)
        except type_check.InvalidType as e:
            if type_check.in_light_mode():
                raise
            err = self._v7_error(in_types)
            if err is None:
                raise
            err.add_note('the fused LSTM step: ' + str(e).strip().replace('\n', '; '))
            raise err from None

    def _v7_error(self, in_types: Any) -> type_check.InvalidType | None:
        """The InvalidType v7's L.LSTM raised for these inputs: in its upward Linear,
        its lateral Linear, then F.lstm on ``(c, upward(x) + lateral(h))``."""
        from chainer.functions.connection.linear import LinearFunction
        from chainer.functions.rnn.lstm import LSTM

        infos = [tuple.__getitem__(in_types, i) for i in range(len(in_types))]
        c, x, wu, b = infos[:4]
        err = internal.v7_type_error('LinearFunction', None, (x, wu, b),
                            LinearFunction().check_type_forward, whole=True)
        if err is None and self.lateral:
            err = internal.v7_type_error('LinearFunction', None, tuple(infos[4:]),
                                LinearFunction().check_type_forward, whole=True)
        if err is None:
            z_shape = (x.shape[0], wu.shape[0])
            err = internal.v7_type_error('LSTM', None, (c, x), LSTM().check_type_forward,
                                shapes=(c.shape, z_shape), whole=True)
        return err

    def _check_fused(self, in_types: Any) -> None:
        names = ('c_prev', 'x', 'Wu', 'b', 'h_prev', 'Wl')[:4 + 2 * self.lateral]
        type_check.argname(in_types, names)
        c_type, x_type, w_type, b_type = in_types[:4]
        type_check.expect(
            c_type.dtype.kind == 'f',
            x_type.dtype == c_type.dtype,
            w_type.dtype == c_type.dtype,
            b_type.dtype == c_type.dtype,
            c_type.ndim == 2,
            x_type.ndim == 2,
            w_type.ndim == 2,
            b_type.ndim == 1,
            x_type.shape[0] == c_type.shape[0],
            w_type.shape[0] == 4 * c_type.shape[1],
            w_type.shape[1] == x_type.shape[1],
            b_type.shape[0] == w_type.shape[0],
        )
        if self.lateral:
            h_type, l_type = in_types[4:]
            type_check.expect(
                h_type.dtype == c_type.dtype,
                l_type.dtype == c_type.dtype,
                h_type.shape == c_type.shape,
                l_type.shape[0] == w_type.shape[0],
                l_type.shape[1] == c_type.shape[1],
            )

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        c_prev, x, Wu, b = inputs[:4]
        xp = backend.get_array_module(x)
        batch, units = c_prev.shape
        z = internal.blas_dot(Wu, x.T)
        if self.lateral:
            h_prev, Wl = inputs[4:]
            z += internal.blas_dot(Wl, h_prev.T)
        self._fused = internal.lstm_kernels_usable(z)
        if self._fused:  # the gates stay raw: backward recomputes them in its kernel
            z += b[:, None]
            gates = z.reshape(units, 4, batch)
            c = xp.empty((units, batch), z.dtype)
            h = xp.empty_like(c)
            za, zi, zf, zo = (gates[:, k] for k in range(4))
            internal.lstm_forward_kernel(za, zi, zf, zo, c_prev.T, c, h)
            self._gates, self._c = gates, c
            return c.T, h.T
        # gate-major (4, units, batch), each gate contiguous: the elementwise work below
        # then runs over long rows instead of rows of one batch (about 3x faster); the
        # bias is added by the same pass that reorders
        gates = xp.empty((4, units, batch), z.dtype)
        if _compiled(z, b, c_prev):  # the same operations, fewer passes
            half = z.dtype.type(0.5)
            _lstm_cell_kernels.gates(z, b, half, gates)
            numpy.tanh(gates[0], out=gates[0])
            numpy.tanh(gates[1:], out=gates[1:])
            c = numpy.empty((units, batch), z.dtype)
            _lstm_cell_kernels.state(gates, c_prev, half, c)
            h = numpy.tanh(c)
            h *= gates[3]
            self._gates = gates
            self._c = c
            return c.T, h.T
        xp.add(z.reshape(units, 4, batch).transpose(1, 0, 2),
               b.reshape(units, 4).T[:, :, None], out=gates)
        xp.tanh(gates[0], out=gates[0])
        _sigmoid_inplace(gates[1:], xp)
        a, i, f, o = gates
        c = a * i
        c += f * c_prev.T
        h = xp.tanh(c)
        h *= o
        self._gates = gates
        self._c = c
        return c.T, h.T

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return internal.grad_by_recompute(self, self._composed, indexes, grad_outputs)
        inputs = []
        for v in self.get_retained_inputs():
            if v is None:  # every input of the cell is an array, none is None
                raise RuntimeError('LSTMCell.backward: a retained input is None')
            inputs.append(v.array)
        c_prev, x, Wu = inputs[:3]
        xp = backend.get_array_module(x)
        gates, c = self._gates, self._c
        gc_out, gh_out = grad_outputs
        if self._fused:
            gz = xp.empty(gates.shape, gates.dtype)
            gc_prev = xp.empty_like(c)
            za, zi, zf, zo = (gates[:, k] for k in range(4))
            ga, gi, gf, go = (gz[:, k] for k in range(4))
            internal.lstm_backward_kernel(za, zi, zf, zo, c_prev.T, c,
                                          None if gc_out is None else gc_out.array.T,
                                          None if gh_out is None else gh_out.array.T,
                                          ga, gi, gf, go, gc_prev)
            return self._input_grads(indexes, inputs, gz.reshape(-1, gates.shape[2]), gc_prev)
        co = xp.tanh(c)
        units, batch = c.shape
        given = [g.array for g in grad_outputs if g is not None]
        if _compiled(gates, c_prev, *given):
            gz_rows = numpy.empty((4 * units, batch), c.dtype)
            gc_prev = numpy.empty_like(c)
            _lstm_cell_kernels.backward(
                gates, c_prev, co, c if gh_out is None else gh_out.array,
                c if gc_out is None else gc_out.array, gh_out is not None,
                gc_out is not None, c.dtype.type(1), gz_rows, gc_prev)
            return self._input_grads(indexes, inputs, gz_rows, gc_prev)
        a, i, f, o = gates  # gate-major, as the forward left them
        gz = xp.empty(gates.shape, gates.dtype)
        if gh_out is not None:
            gh = gh_out.array.T
            xp.multiply(gh, co, out=gz[3])  # times o (1 - o) below, with the other gates
            gc = co
            gc *= co
            xp.subtract(1, gc, out=gc)
            gc *= o
            gc *= gh
            if gc_out is not None:
                gc += gc_out.array.T
        else:
            gz[3] = 0
            gc = gc_out.array.T if gc_out is not None else xp.zeros_like(c)
        # the sigmoid gates: gz = source * s (1 - s), with sources gc a, gc c_prev, gh co
        xp.multiply(gc, a, out=gz[1])
        xp.multiply(gc, c_prev.T, out=gz[2])
        ds = 1 - gates[1:]
        ds *= gates[1:]
        gz[1:] *= ds
        xp.multiply(a, a, out=gz[0])
        xp.subtract(1, gz[0], out=gz[0])
        gz[0] *= i
        gz[0] *= gc
        # back to the rows of the weights (unit k's gates at rows 4k .. 4k + 3)
        gz_rows = gz.transpose(1, 0, 2).reshape(4 * units, batch)
        return self._input_grads(indexes, inputs, gz_rows, gc * f if 0 in indexes else None)

    def _input_grads(self, indexes: Any, inputs: list[Any], gz: Any,
                     gc_prev: Any) -> tuple[Any, ...]:
        """The gradients of the inputs ``indexes`` from ``gz`` (of the raw gates, rows
        interleaved, columns the batch) and ``gc_prev`` (transposed).

        The weights' gradients are deferred (summed over the steps in one product at
        the end of the pass) when the pass allows it.
        """
        x, Wu = inputs[1:3]
        ret: list[Any] = []
        for index in indexes:
            if index in (2, 5):  # a weight: gz times the step's input (x or h_prev)
                source = x if index == 2 else inputs[4]
                if internal.deferred_grad_wanted(self, self.inputs[index], inputs[index].size):
                    ret.append(internal.DeferredProductSum(gz.T, source, gz.dtype))
                    continue
                g = internal.blas_dot(gz, source)
            elif index == 0:
                g = gc_prev.T
            elif index == 1:
                g = internal.blas_dot(Wu.T, gz).T
            elif index == 3:
                g = internal.first_axis_sum(gz.T)
            else:
                g = internal.blas_dot(inputs[5].T, gz).T
            ret.append(Variable(g, requires_grad=False))
        return tuple(ret)

    def _composed(self, c_prev: Any, x: Any, Wu: Any, b: Any, h_prev: Any = None,
                  Wl: Any = None) -> tuple[Any, Any]:
        z = functions.linear(x, Wu, b)
        if self.lateral:
            z = z + functions.linear(h_prev, Wl)
        return functions.lstm(c_prev, z)


def lstm_cell(c_prev: Any, x: Any, Wu: Any, b: Any, h_prev: Any = None,
              Wl: Any = None) -> tuple[Variable, Variable]:
    """One fused LSTM step (see :class:`LSTMCell`); ``h_prev`` None skips the lateral term.

    Returns:
        ``(c, h)``, each of the shape of ``c_prev``.
    """
    if h_prev is None:
        c, h = LSTMCell(False).apply((c_prev, x, Wu, b))
    else:
        c, h = LSTMCell(True).apply((c_prev, x, Wu, b, h_prev, Wl))
    return c, h
