"""Tests of the NStep links: sequences of any order of lengths, against per-sequence NumPy."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check, initializers
from chainer.links.rnn.n_step_rnn import argsort_list_descent, permutate_list


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_seq(p, seq, h, c):
    w = [getattr(p, f'w{k}').array for k in range(8)]
    b = [getattr(p, f'b{k}').array for k in range(8)]
    out = []
    for x in seq:
        gate = [x @ w[k].T + h @ w[k + 4].T + b[k] + b[k + 4] for k in range(4)]
        i, f, a, o = _sigmoid(gate[0]), _sigmoid(gate[1]), numpy.tanh(gate[2]), \
            _sigmoid(gate[3])
        c = f * c + i * a
        h = o * numpy.tanh(c)
        out.append(h)
    return numpy.array(out), h, c


def _gru_seq(p, seq, h):
    w = [getattr(p, f'w{k}').array for k in range(6)]
    b = [getattr(p, f'b{k}').array for k in range(6)]
    out = []
    for x in seq:
        r = _sigmoid(x @ w[0].T + h @ w[3].T + b[0] + b[3])
        z = _sigmoid(x @ w[1].T + h @ w[4].T + b[1] + b[4])
        h_bar = numpy.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
        h = (1 - z) * h_bar + z * h
        out.append(h)
    return numpy.array(out), h


def _rnn_seq(p, seq, h, act):
    out = []
    for x in seq:
        h = act(x @ p.w0.array.T + p.b0.array + h @ p.w1.array.T + p.b1.array)
        out.append(h)
    return numpy.array(out), h


def _randomize(rnn):
    for p in rnn.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)


LENGTHS = [2, 4, 1]


def _inputs(in_size):
    return [numpy.random.randn(n, in_size) for n in LENGTHS]


def test_helpers():
    assert argsort_list_descent([[1], [1, 2, 3], [1, 2]]) == [1, 2, 0]
    assert permutate_list(['a', 'b', 'c'], [1, 2, 0], inv=False) == ['b', 'c', 'a']
    assert permutate_list(['b', 'c', 'a'], [1, 2, 0], inv=True) == ['a', 'b', 'c']


@pytest.mark.parametrize('bidirectional', [False, True])
def test_n_step_lstm_against_numpy(bidirectional):
    with chainer.using_config('dtype', numpy.float64):
        cls = L.NStepBiLSTM if bidirectional else L.NStepLSTM
        rnn = cls(2, 3, 2, 0.0)
    _randomize(rnn)
    n_dir = 2 if bidirectional else 1
    assert rnn.n_cells == 2 and len(rnn) == 2 * n_dir
    assert rnn[0].w0.shape == (2, 3) and rnn[n_dir].w0.shape == (2, 2 * n_dir)
    xs = _inputs(3)
    hx = numpy.random.randn(2 * n_dir, 3, 2)
    cx = numpy.random.randn(2 * n_dir, 3, 2)
    hy, cy, ys = rnn(hx, cx, xs)
    assert hy.shape == cx.shape and [len(y) for y in ys] == LENGTHS
    for i, seq in enumerate(xs):
        for layer in range(2):
            outs = []
            for d in range(n_dir):
                k = layer * n_dir + d
                run = seq[::-1] if d else seq
                out, h, c = _lstm_seq(rnn[k], run, hx[k, i], cx[k, i])
                numpy.testing.assert_allclose(hy.array[k, i], h, rtol=1e-10)
                numpy.testing.assert_allclose(cy.array[k, i], c, rtol=1e-10)
                outs.append(out[::-1] if d else out)
            seq = numpy.concatenate(outs, axis=1)
        numpy.testing.assert_allclose(ys[i].array, seq, rtol=1e-10)


def test_n_step_gru_against_numpy_with_zero_initial_state():
    with chainer.using_config('dtype', numpy.float64):
        rnn = L.NStepGRU(1, 3, 4, 0.0)
    _randomize(rnn)
    xs = _inputs(3)
    hy, ys = rnn(None, xs)
    for i, seq in enumerate(xs):
        out, h = _gru_seq(rnn[0], seq, numpy.zeros(4))
        numpy.testing.assert_allclose(ys[i].array, out, rtol=1e-10)
        numpy.testing.assert_allclose(hy.array[0, i], h, rtol=1e-10)


@pytest.mark.parametrize('cls,act', [(L.NStepRNNTanh, numpy.tanh),
                                     (L.NStepRNNReLU, lambda v: numpy.maximum(v, 0))])
def test_n_step_rnn_against_numpy(cls, act):
    with chainer.using_config('dtype', numpy.float64):
        rnn = cls(1, 3, 2, 0.0)
    _randomize(rnn)
    xs = _inputs(3)
    hx = numpy.random.randn(1, 3, 2)
    hy, ys = rnn(hx, xs)
    assert rnn.n_cells == 1
    for i, seq in enumerate(xs):
        out, h = _rnn_seq(rnn[0], seq, hx[0, i], act)
        numpy.testing.assert_allclose(ys[i].array, out, rtol=1e-10)


def test_n_step_gradients():
    with chainer.using_config('dtype', numpy.float64):
        rnn = L.NStepBiGRU(1, 2, 2, 0.0)
    xs = [numpy.random.randn(n, 2) for n in (1, 3)]
    hx = numpy.random.randn(2, 2, 2)

    def f(h, *seqs):
        hy, ys = rnn(h, list(seqs))
        return (hy, *ys)

    gys = (numpy.random.randn(2, 2, 2), numpy.random.randn(1, 4), numpy.random.randn(3, 4))
    gradient_check.check_backward(f, (hx, *xs), gys, tuple(rnn.params()), atol=1e-5,
                                  rtol=1e-5)


def test_n_step_initializers_and_parameter_lists():
    rnn = L.NStepBiRNNTanh(2, 3, 4, 0.5, initialW=initializers.Constant(.5), initial_bias=1)
    assert len(rnn.ws) == 4 and len(rnn.ws[0]) == 2
    assert rnn.ws[0][0] is rnn[0].w0 and rnn.bs[3][1] is rnn[3].b1
    assert all((w.array == .5).all() for ws in rnn.ws for w in ws)
    assert all((b.array == 1).all() for bs in rnn.bs for b in bs)
    copied = rnn.copy()
    assert copied.ws[1][1] is copied[1].w1
    default = L.NStepLSTM(1, 2, 2, 0.0)
    assert all((b.array == 0).all() for bs in default.bs for b in bs)


def test_n_step_bad_arguments():
    with pytest.raises(ValueError, match='use_cudnn'):
        L.NStepLSTM(1, 2, 2, 0.0, use_cudnn=True)
    with pytest.raises(TypeError):
        L.NStepLSTM(1, 2, 2, 0.0, bogus=True)
    rnn = L.NStepGRU(1, 2, 2, 0.0)
    x = [numpy.zeros((2, 2), 'f')]
    with pytest.raises(ValueError, match='train'):
        rnn(None, x, train=True)
    with pytest.raises(TypeError, match='list'):
        rnn(None, numpy.zeros((2, 2), 'f'))
    with pytest.raises(ValueError, match='hx must be of shape'):
        rnn(numpy.zeros((1, 3, 2), 'f'), x)
    with pytest.raises(ValueError, match='cx must be of shape'):
        L.NStepLSTM(1, 2, 2, 0.0)(None, numpy.zeros((1, 2, 2), 'f'), x)
