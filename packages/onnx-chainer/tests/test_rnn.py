"""Converters of the recurrent functions: export, check, run in onnxruntime, compare."""

import numpy
import pytest
from _onnx_check import Apply, check_export, op_types, opsets

import chainer.functions as F
import chainer.links as L
from chainer.functions.rnn.n_step_gru import NStepGRULayer
from chainer.functions.rnn.n_step_lstm import NStepLSTMLayer
from chainer.functions.rnn.n_step_rnn import NStepRNNLayer
from onnx_chainer.functions import converters

RNG = numpy.random.RandomState(0)


def _x(*shape):
    return RNG.uniform(-1, 1, shape).astype(numpy.float32)


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('c_batch,x_batch,rest', [(3, 3, ()), (4, 2, ()), (2, 2, (3,))])
def test_lstm(opset, c_batch, x_batch, rest):
    c = _x(c_batch, 4, *rest)
    x = _x(x_batch, 16, *rest) * 2
    proto = check_export(Apply(lambda c, x: F.lstm(c, x)), (c, x), opset)
    assert 'LSTM' not in op_types(proto)


@pytest.mark.parametrize('opset', opsets(7))
def test_lstm_link(opset):
    # the first step has no lateral input (LSTMCell(False)); the second has
    def run(m, x0, x1):
        m.l.reset_state()
        m.l(x0)
        return m.l(x1), m.l.c

    model = Apply(run, l=L.LSTM(3, 4))
    check_export(model, (_x(2, 3), _x(2, 3)), opset)


@pytest.mark.parametrize('opset', opsets(7))
def test_stateless_lstm_link(opset):
    model = Apply(lambda m, c, h, x: m.l(c, h, x), l=L.StatelessLSTM(3, 4))
    check_export(model, (_x(2, 4), _x(2, 4), _x(2, 3)), opset)


LAYERS = {  # class, weights, states, keyword arguments, ONNX operator
    'lstm': (NStepLSTMLayer, 8, 2, {}, 'LSTM'),
    'gru': (NStepGRULayer, 6, 1, {}, 'GRU'),
    'rnn_tanh': (NStepRNNLayer, 2, 1, {'activation': 'tanh'}, 'RNN'),
    'rnn_relu': (NStepRNNLayer, 2, 1, {'activation': 'relu'}, 'RNN'),
}


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('reverse', [False, True])
@pytest.mark.parametrize('lengths', [(3, 3, 3, 3), (3, 3, 2, 1)])
@pytest.mark.parametrize('kind', sorted(LAYERS))
def test_n_step_layer(kind, lengths, reverse, opset):
    cls, n_weights, n_states, kwargs, op = LAYERS[kind]
    n_in, units, batch = 3, 4, lengths[0]
    x = _x(sum(lengths), n_in)
    states = [_x(batch, units) for _ in range(n_states)]
    ws = [_x(units, n_in) for _ in range(n_weights // 2)]
    ws += [_x(units, units) for _ in range(n_weights // 2)]
    bs = [_x(units) for _ in range(n_weights)]

    def run(m, x, *rest):
        return cls(lengths, reverse=reverse, **kwargs).apply((x,) + rest)

    proto = check_export(Apply(run, with_model=True), [x] + states + ws + bs, opset)
    assert op_types(proto).count(op) == 1


def _needs(*names):
    missing = [n for n in names if n not in converters]
    return pytest.mark.skipif(bool(missing), reason=f'no converter yet for {missing}')


LINKS = [
    (L.NStepLSTM, True), (L.NStepBiLSTM, True), (L.NStepGRU, False),
    (L.NStepBiGRU, False), (L.NStepRNNTanh, False), (L.NStepBiRNNReLU, False),
]


@_needs('TransposeSequence', 'Permutate', 'SplitAxis', 'Separate', 'Stack', 'Concat')
@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(LINKS)))
def test_n_step_links(case, opset):
    link_cls, has_cell = LINKS[case]

    def run(m, *xs):
        if has_cell:
            hy, cy, ys = m.l(None, None, list(xs))
            return [hy, cy] + list(ys)
        hy, ys = m.l(None, list(xs))
        return [hy] + list(ys)

    model = Apply(run, l=link_cls(2, 3, 4, 0.0))
    xs = [_x(4, 3), _x(2, 3), _x(3, 3)]
    check_export(model, xs, opset, rtol=1e-4, atol=1e-5)


@_needs('Separate', 'Stack', 'Concat', 'SplitAxis')
@pytest.mark.parametrize('opset', opsets(7))
def test_n_step_gru_function(opset):
    n_layers, batch, n_in, units, steps = 2, 3, 4, 5, 6

    def run(m, hx, xs):
        ws = [[m.w0[i] for i in range(6)], [m.w1[i] for i in range(6)]]
        bs = [[m.b[j, i] for i in range(6)] for j in range(n_layers)]
        hy, ys = F.n_step_gru(n_layers, 0.0, hx, ws, bs, F.separate(xs))
        return hy, F.stack(ys)

    model = Apply(run, with_model=True)
    model.w0 = [_x(units, n_in) for _ in range(3)] + [_x(units, units) for _ in range(3)]
    model.w1 = [_x(units, units) for _ in range(6)]
    model.b = _x(n_layers, 6, units)
    check_export(model, (_x(n_layers, batch, units), _x(steps, batch, n_in)), opset,
                 rtol=1e-4, atol=1e-5)
