"""Converters of chainer.functions.rnn (and the fused LSTM step of ``L.LSTM``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.functions.rnn.lstm import LSTM
    from chainer.functions.rnn.n_step_gru import NStepGRULayer
    from chainer.functions.rnn.n_step_lstm import NStepLSTMLayer
    from chainer.functions.rnn.n_step_rnn import NStepRNNLayer
    from chainer.functions.rnn.slstm import SLSTM
    from chainer.functions.rnn.tree_lstm import TreeLSTM


def _i64(context: Context, values: Any, name: str) -> str:
    return context.add_const(numpy.asarray(values, numpy.int64), name)


def _reshape(gb: onnx_helper.GraphBuilder, context: Context, name: str,
             shape: Sequence[int], tag: str = 'shape') -> str:
    return gb.op('Reshape', [name, _i64(context, list(shape), tag)])


def _rows(gb: onnx_helper.GraphBuilder, context: Context, name: str, start: int, stop: int) -> str:
    """Rows ``start:stop`` of ``name`` (Gather of constant indices: one form at every
    opset, unlike Slice)."""
    return gb.op('Gather', [name, _i64(context, numpy.arange(start, stop), 'rows')], axis=0)


def _lstm_update(gb: onnx_helper.GraphBuilder, context: Context, c_prev: str, z: str,
                 c_shape: Sequence[int], z_shape: Sequence[int],
                 output_names: list[str]) -> None:
    """``c, h`` of Chainer's LSTM step from the raw gates ``z`` (units interleaved:
    unit ``k`` of gates a, i, f, o at columns ``4k .. 4k + 3``) and ``c_prev`` (whose
    rows past ``z``'s batch pass through to ``c``)."""
    batch, rest = z_shape[0], tuple(z_shape[2:])
    units = c_shape[1]
    gates = _reshape(gb, context, z, (batch, units, 4) + rest, 'gates_shape')
    a, i, f, o = (gb.op('Gather', [gates, _i64(context, j, 'gate')], axis=2)
                  for j in range(4))
    c_head = c_prev if batch == c_shape[0] else _rows(gb, context, c_prev, 0, batch)
    terms = [gb.op('Mul', [gb.op('Tanh', [a]), gb.op('Sigmoid', [i])]),
             gb.op('Mul', [gb.op('Sigmoid', [f]), c_head])]
    if batch == c_shape[0]:
        c = gb.op_output_named('Add', terms, output_names[:1]).output[0]
    else:
        c = gb.op('Add', terms)
        c_tail = _rows(gb, context, c_prev, batch, c_shape[0])
        gb.op_output_named('Concat', [c, c_tail], output_names[:1], axis=0)
    gb.op_output_named('Mul', [gb.op('Sigmoid', [o]), gb.op('Tanh', [c])], output_names[1:2])


@support((7,))
def convert_LSTM(func: LSTM, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """LSTM (F.lstm: ``(c_prev, x)`` to ``(c, h)``) -> Reshape and Gather of the
    interleaved gates, Tanh/Sigmoid, Mul and Add (Gather and Concat for a ``c_prev``
    with more rows than ``x``)."""
    gb = onnx_helper.GraphBuilder()
    _lstm_update(gb, context, input_names[0], input_names[1], func.inputs[0].shape,
                 func.inputs[1].shape, output_names)
    return gb.nodes()


@support((7,))
def convert_LSTMCell(func: FunctionNode, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """LSTMCell (the fused step of L.LSTM / L.StatelessLSTM: ``(c_prev, x, Wu, b[,
    h_prev, Wl])`` to ``(c, h)``) -> Gemm ``x Wu^T + b (+ h_prev Wl^T)``, then the
    LSTM update as in :func:`convert_LSTM`."""
    gb = onnx_helper.GraphBuilder()
    c_prev, x, wu, b = input_names[:4]
    z = gb.op('Gemm', [x, wu, b], transB=1)
    if len(func.inputs) == 6:  # lateral: h_prev and Wl given
        z = gb.op('Gemm', [input_names[4], input_names[5], z], transB=1)
    c_shape = func.inputs[0].shape
    z_shape = (func.inputs[1].shape[0], func.inputs[2].shape[0])
    _lstm_update(gb, context, c_prev, z, c_shape, z_shape, output_names)
    return gb.nodes()


# Chainer's weights -> ONNX's gate order: (input-side, recurrent) indices into ws / bs
_LSTM_ORDER = ((0, 3, 1, 2), (4, 7, 5, 6))  # Chainer i, f, a, o -> ONNX i, o, f, c
_GRU_ORDER = ((1, 0, 2), (4, 3, 5))  # Chainer r, z, n -> ONNX z, r, h
_RNN_ORDER = ((0,), (1,))


def _n_step_layer(func: Any, op_type: str, order: tuple[Sequence[int], Sequence[int]],
                  input_names: list[str], output_names: list[str], context: Context,
                  **attrs: Any) -> tuple[NodeProto, ...]:
    """One NStep*Layer node (one layer and direction over a packed batch) as one ONNX
    LSTM/GRU/RNN: the packed rows are gathered to ``(T, B, in)`` (padding from an
    appended zero row, ``sequence_lens`` when the lengths differ), the weights and
    biases concatenated in ONNX's gate order, and ``Y`` gathered back to packed rows."""
    gb = onnx_helper.GraphBuilder()
    lengths = list(func.lengths)
    n_states = 2 if op_type == 'LSTM' else 1
    x = input_names[0]
    states = input_names[1:1 + n_states]
    k = len(order[0]) * 2
    ws = input_names[1 + n_states:1 + n_states + k]
    bs = input_names[1 + n_states + k:1 + n_states + 2 * k]
    total, n_in = func.inputs[0].shape
    batch, units = func.inputs[1].shape
    steps = len(lengths)
    gates = len(order[0])
    offsets = numpy.concatenate(([0], numpy.cumsum(lengths)))
    equal = all(n == batch for n in lengths)

    if equal:
        seq = _reshape(gb, context, x, (steps, batch, n_in), 'x_shape')
        seq_lens = ''
    else:
        pad_idx = numpy.full((steps, batch), total, numpy.int64)
        for t, n in enumerate(lengths):
            pad_idx[t, :n] = offsets[t] + numpy.arange(n)
        zero = context.add_const(numpy.zeros((1, n_in), func.inputs[0].dtype), 'zero_row')
        x_ext = gb.op('Concat', [x, zero], axis=0)
        seq = gb.op('Gather', [x_ext, _i64(context, pad_idx, 'pad_index')], axis=0)
        seq_lens = context.add_const(
            numpy.array([sum(1 for n in lengths if n > b) for b in range(batch)], numpy.int32),
            'sequence_lens')

    def stacked(names: Sequence[str], shape: Sequence[int], tag: str) -> str:
        joined = names[0] if len(names) == 1 else gb.op('Concat', list(names), axis=0)
        return _reshape(gb, context, joined, shape, tag)

    w = stacked([ws[i] for i in order[0]], (1, gates * units, n_in), 'w_shape')
    r = stacked([ws[i] for i in order[1]], (1, gates * units, units), 'r_shape')
    b = stacked([bs[i] for i in (*order[0], *order[1])], (1, 2 * gates * units), 'b_shape')
    initial = [_reshape(gb, context, s, (1, batch, units), 'state_shape') for s in states]
    direction = 'reverse' if func.reverse else 'forward'
    outs = gb.op(op_type, [seq, w, r, b, seq_lens] + initial,
                 num_outputs=1 + n_states, hidden_size=units, direction=direction, **attrs)
    y = outs[0]
    y_shape = _i64(context, [steps * batch, units], 'y_shape')
    if equal:
        gb.op_output_named('Reshape', [y, y_shape], output_names[:1])
    else:
        flat = gb.op('Reshape', [y, y_shape])
        pack_idx = numpy.concatenate([t * batch + numpy.arange(n)
                                      for t, n in enumerate(lengths)]).astype(numpy.int64)
        gb.op_output_named('Gather', [flat, _i64(context, pack_idx, 'pack_index')],
                           output_names[:1], axis=0)
    state_shape = _i64(context, [batch, units], 'out_state_shape')
    for j in range(n_states):
        gb.op_output_named('Reshape', [outs[1 + j], state_shape], output_names[1 + j:2 + j])
    return gb.nodes()


@support((7,))
def convert_NStepLSTMLayer(func: NStepLSTMLayer, opset_version: int, input_names: list[str],
                           output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """NStepLSTMLayer (one layer and direction of n_step_lstm / n_step_bilstm and the
    NStep(Bi)LSTM links) -> ONNX LSTM (direction forward or reverse), gates reordered
    from Chainer's (i, f, a, o) to ONNX's (i, o, f, c)."""
    return _n_step_layer(func, 'LSTM', _LSTM_ORDER, input_names, output_names, context)


@support((7,))
def convert_NStepGRULayer(func: NStepGRULayer, opset_version: int, input_names: list[str],
                          output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """NStepGRULayer (one layer and direction of n_step_gru / n_step_bigru) -> ONNX GRU
    with ``linear_before_reset=1`` (Chainer's ``r * (W5 h + b5)``), gates reordered from
    Chainer's (r, z, n) to ONNX's (z, r, h)."""
    return _n_step_layer(func, 'GRU', _GRU_ORDER, input_names, output_names, context,
                         linear_before_reset=1)


@support((7,))
def convert_NStepRNNLayer(func: NStepRNNLayer, opset_version: int, input_names: list[str],
                          output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """NStepRNNLayer (one layer and direction of n_step_rnn / n_step_birnn) -> ONNX RNN
    with activation Tanh or Relu."""
    activation = 'Relu' if func.activation == 'relu' else 'Tanh'
    return _n_step_layer(func, 'RNN', _RNN_ORDER, input_names, output_names, context,
                         activations=[activation])


def _gate_parts(gb: onnx_helper.GraphBuilder, context: Context, z: str, shape: Sequence[int],
                n: int, interleaved: bool) -> list[str]:
    """The ``n`` gate blocks of ``z`` (axis 1 of ``shape``): interleaved (unit ``k`` of
    gate ``j`` at column ``n k + j``, as F.lstm) or consecutive blocks."""
    units = shape[1] // n
    rest = tuple(shape[2:])
    split = (units, n) if interleaved else (n, units)
    gates = _reshape(gb, context, z, (shape[0],) + split + rest, 'gates_shape')
    axis = 2 if interleaved else 1
    return [gb.op('Gather', [gates, _i64(context, j, 'gate')], axis=axis) for j in range(n)]


@support((7,))
def convert_SLSTM(func: SLSTM, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SLSTM (F.slstm: ``(c_prev1, c_prev2, x1, x2)`` to ``(c, h)``) -> the interleaved
    gates ``a, i, f, o`` of each child (Reshape, Gather), ``c = tanh(a1) sig(i1) +
    tanh(a2) sig(i2) + sig(f1) c1 + sig(f2) c2`` and ``h = sig(o1 + o2) tanh(c)``
    (Tanh, Sigmoid, Mul, Add)."""
    c1, c2, x1, x2 = input_names
    shape = func.inputs[2].shape
    gb = onnx_helper.GraphBuilder()
    a1, i1, f1, o1 = _gate_parts(gb, context, x1, shape, 4, True)
    a2, i2, f2, o2 = _gate_parts(gb, context, x2, shape, 4, True)
    terms = [gb.op('Mul', [gb.op('Tanh', [a1]), gb.op('Sigmoid', [i1])]),
             gb.op('Mul', [gb.op('Tanh', [a2]), gb.op('Sigmoid', [i2])]),
             gb.op('Mul', [gb.op('Sigmoid', [f1]), c1]),
             gb.op('Mul', [gb.op('Sigmoid', [f2]), c2])]
    c = gb.op('Add', [gb.op('Add', [gb.op('Add', terms[:2]), terms[2]]), terms[3]])
    gb.op_output_named('Identity', [c], output_names[:1])
    o = gb.op('Sigmoid', [gb.op('Add', [o1, o2])])
    gb.op_output_named('Mul', [o, gb.op('Tanh', [c])], output_names[1:2])
    return gb.nodes()


@support((7,))
def convert_TreeLSTM(func: TreeLSTM, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """TreeLSTM (F.tree_lstm: ``(c_1, ..., c_N, x)`` to ``(c, h)``) -> the consecutive
    gate blocks ``a, i, o, f_1 .. f_N`` of x (Reshape, Gather), ``c = tanh(a) sig(i) +
    sum_k sig(f_k) c_k`` and ``h = sig(o) tanh(c)`` (Tanh, Sigmoid, Mul, Add)."""
    cs, x = input_names[:-1], input_names[-1]
    gb = onnx_helper.GraphBuilder()
    a, i, o, *fs = _gate_parts(gb, context, x, func.inputs[-1].shape, 3 + len(cs), False)
    c = gb.op('Mul', [gb.op('Tanh', [a]), gb.op('Sigmoid', [i])])
    for ck, fk in zip(cs, fs):
        c = gb.op('Add', [c, gb.op('Mul', [gb.op('Sigmoid', [fk]), ck])])
    gb.op_output_named('Identity', [c], output_names[:1])
    gb.op_output_named('Mul', [gb.op('Sigmoid', [o]), gb.op('Tanh', [c])], output_names[1:2])
    return gb.nodes()
