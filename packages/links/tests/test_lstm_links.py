"""Tests of L.LSTM, L.StatelessLSTM, L.StatefulPeepholeLSTM and L.StatefulZoneoutLSTM."""

import copy

import numpy
import pytest
from dict_serializers import DictLoader, DictSaver

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import gradient_check, initializers


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_step(link, c, h, x):
    """One LSTM step in NumPy with the link's (interleaved) weights."""
    z = x @ link.upward.W.array.T + link.upward.b.array
    if h is not None:
        z = z + h @ link.lateral.W.array.T
    a, i, f, o = (z[:, k::4] for k in range(4))
    c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c
    return c_new, _sigmoid(o) * numpy.tanh(c_new)


def test_lstm_default_bias_and_block_initialization():
    link = L.LSTM(2, 3)
    numpy.testing.assert_array_equal(link.upward.b.array, [0, 0, 1, 0] * 3)
    assert link.lateral.b is None
    assert link.upward.W.shape == (12, 2) and link.lateral.W.shape == (12, 3)
    custom = L.LSTM(2, 3, lateral_init=initializers.Constant(2), upward_init=1, bias_init=.5,
                    forget_bias_init=-1)
    numpy.testing.assert_array_equal(custom.lateral.W.array, numpy.full((12, 3), 2))
    numpy.testing.assert_array_equal(custom.upward.W.array, numpy.ones((12, 2)))
    numpy.testing.assert_array_equal(custom.upward.b.array, [.5, .5, -1, .5] * 3)


def test_lstm_keeps_state_across_calls():
    link = L.LSTM(4, 3)
    xs = [numpy.random.randn(2, 4).astype('f') for _ in range(3)]
    c = numpy.zeros((2, 3), 'f')
    h = None
    for x in xs:
        y = link(x)
        c, h = _lstm_step(link, c, h, x)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.c.array, c, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.c is None and link.h is None
    numpy.testing.assert_allclose(link(xs[0]).array, _lstm_step(link, 0, None, xs[0])[1],
                                  rtol=1e-5, atol=1e-6)


def test_lstm_shrinking_batch_updates_the_first_rows_only():
    link = L.LSTM(3, 2)
    link(numpy.random.randn(4, 3).astype('f'))
    c0, h0 = link.c.array.copy(), link.h.array.copy()
    x = numpy.random.randn(2, 3).astype('f')
    y = link(x)
    c_new, h_new = _lstm_step(link, c0[:2], h0[:2], x)
    numpy.testing.assert_allclose(y.array, h_new, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.h.array[2:], h0[2:])
    numpy.testing.assert_allclose(link.c.array[2:], c0[2:])
    numpy.testing.assert_allclose(link.c.array[:2], c_new, rtol=1e-5, atol=1e-6)
    empty = link(numpy.zeros((0, 3), 'f'))
    assert empty.shape == (0, 2) and link.h.shape == (4, 2)
    with pytest.raises(TypeError, match='batch size'):
        link(numpy.zeros((5, 3), 'f'))


def test_lstm_lazy_input_size():
    link = L.LSTM(5)
    assert link.upward.W.array is None and link.state_size == 5
    y = link(numpy.random.randn(2, 3, 2).astype('f'))
    assert link.upward.W.shape == (20, 6) and y.shape == (2, 5)
    assert L.LSTM(None, 4)(numpy.zeros((1, 7), 'f')).shape == (1, 4)
    with pytest.raises(ValueError, match='output size'):
        L.LSTM(None)


def test_lstm_gradients_through_two_steps():
    with chainer.using_config('dtype', numpy.float64):
        link = L.LSTM(3, 2)
    link.cleargrads()
    x1 = numpy.random.randn(2, 3)
    x2 = numpy.random.randn(2, 3)

    def two_steps(a, b):
        link.reset_state()
        link(a)
        return link(b)

    params = (link.upward.W, link.upward.b, link.lateral.W)
    gradient_check.check_backward(two_steps, (x1, x2), numpy.random.randn(2, 2), params,
                                  atol=1e-4, rtol=1e-4)


def test_lstm_set_state_and_errors():
    link = L.LSTM(2, 3)
    c = chainer.Variable(numpy.ones((1, 3), 'f'))
    h = chainer.Variable(numpy.zeros((1, 3), 'f'))
    link.set_state(c, h)
    assert link.c is c and link.h is h
    with pytest.raises(TypeError, match='Variable'):
        link.set_state(numpy.ones((1, 3), 'f'), h)


def test_lstm_state_survives_copy_and_to_device():
    link = L.LSTM(2, 3)
    link(numpy.ones((1, 2), 'f'))
    copied = copy.deepcopy(link)
    numpy.testing.assert_array_equal(copied.h.array, link.h.array)
    link.to_device('@numpy')
    assert isinstance(link.c.array, numpy.ndarray)


def test_lstm_serialization_names():
    link = L.LSTM(2, 3)
    saved = {}
    link.serialize(DictSaver(saved))
    assert sorted(saved) == ['lateral/W', 'upward/W', 'upward/b']
    other = L.LSTM(2, 3)
    other.serialize(DictLoader(saved))
    numpy.testing.assert_array_equal(other.lateral.W.array, link.lateral.W.array)


def test_stateless_lstm():
    link = L.StatelessLSTM(3, 2)
    x = numpy.random.randn(4, 3).astype('f')
    c1, h1 = link(None, None, x)
    c_e, h_e = _lstm_step(link, numpy.zeros((4, 2), 'f'), None, x)
    numpy.testing.assert_allclose(h1.array, h_e, rtol=1e-5, atol=1e-6)
    c2, h2 = link(c1, h1, x)
    c_e, h_e = _lstm_step(link, c_e, h_e, x)
    numpy.testing.assert_allclose(c2.array, c_e, rtol=1e-5, atol=1e-6)
    assert L.StatelessLSTM(4)(None, None, x)[1].shape == (4, 4)


def test_peephole_forward_against_numpy():
    link = L.StatefulPeepholeLSTM(3, 2)
    for p in link.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    x = numpy.random.randn(4, 3).astype('f')
    c = numpy.zeros((4, 2), 'f')
    h = numpy.zeros((4, 2), 'f')
    for _ in range(2):
        y = link(x)
        z = x @ link.upward.W.array.T + link.upward.b.array + h @ link.lateral.W.array.T
        a, i, f, o = (z[:, k::4] for k in range(4))
        i = _sigmoid(i + c @ link.peep_i.W.array.T)
        f = _sigmoid(f + c @ link.peep_f.W.array.T)
        c = numpy.tanh(a) * i + f * c
        o = _sigmoid(o + c @ link.peep_o.W.array.T)
        h = o * numpy.tanh(c)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.c is None and link.h is None


def test_zoneout_extremes_and_test_mode():
    x = numpy.random.randn(3, 2).astype('f')
    keep = L.StatefulZoneoutLSTM(2, 4, c_ratio=1.0, h_ratio=1.0)
    y = keep(x)  # every unit keeps its previous (zero) value
    numpy.testing.assert_array_equal(y.array, numpy.zeros((3, 4)))
    new = L.StatefulZoneoutLSTM(2, 4, c_ratio=0.0, h_ratio=0.0)
    y = new(x)
    z = x @ new.upward.W.array.T + new.upward.b.array
    a, i, f, o = (z[:, k::4] for k in range(4))
    c = numpy.tanh(a) * _sigmoid(i)
    numpy.testing.assert_allclose(y.array, _sigmoid(o) * numpy.tanh(c), rtol=1e-5, atol=1e-6)
    half = L.StatefulZoneoutLSTM(2, 4)
    with chainer.using_config('train', False):
        y = half(x)  # no zoneout in test mode
    assert not numpy.allclose(y.array, 0)
    with pytest.raises(ValueError, match='train'):
        L.StatefulZoneoutLSTM(2, 4, train=True)
    with pytest.raises(TypeError):
        L.StatefulZoneoutLSTM(2, 4, bogus=1)


@pytest.mark.parametrize('units', [1, 3])
def test_lstm_equals_functions_lstm(units):
    link = L.LSTM(2, units)
    x = numpy.random.randn(5, 2).astype('f')
    y = link(x)
    c, h = F.lstm(numpy.zeros((5, units), 'f'), link.upward(x))
    numpy.testing.assert_allclose(y.array, h.array, rtol=1e-6)


def test_fused_step_matches_the_composed_functions_with_gradients():
    from chainer.links.rnn._lstm_cell import lstm_cell

    rng = numpy.random.RandomState(3)
    c, h = rng.randn(2, 3, 4)
    x = rng.randn(3, 5)
    Wu, Wl = rng.randn(16, 5), rng.randn(16, 4)
    b = rng.randn(16)
    c_ref, h_ref = F.lstm(c, F.linear(x, Wu, b) + F.linear(h, Wl))
    c_new, h_new = lstm_cell(c, x, Wu, b, h, Wl)
    numpy.testing.assert_allclose(c_new.array, c_ref.array, rtol=1e-12)
    numpy.testing.assert_allclose(h_new.array, h_ref.array, rtol=1e-12)
    assert c_new.creator.label == 'LSTMCell'
    gys = (rng.randn(3, 4), rng.randn(3, 4))
    inputs = (c, x, Wu, b, h, Wl)
    gradient_check.check_backward(lambda *a: lstm_cell(*a), inputs, gys, atol=1e-6,
                                  rtol=1e-6)
    gradient_check.check_backward(lambda *a: lstm_cell(*a)[1], inputs, gys[1], atol=1e-6,
                                  rtol=1e-6)
    # only the cell state used: no gradient reaches h (the output gate gets none)
    gradient_check.check_backward(lambda *a: lstm_cell(*a)[0], inputs, gys[0], atol=1e-6,
                                  rtol=1e-6)
    gradient_check.check_backward(lambda *a: lstm_cell(*a), inputs[:4], gys, atol=1e-6,
                                  rtol=1e-6)
    ggs = tuple(rng.randn(*a.shape) for a in inputs)
    gradient_check.check_double_backward(lambda *a: lstm_cell(*a), inputs, gys, ggs,
                                         atol=1e-5, rtol=1e-5)


def test_lstm_uses_the_fused_step_when_batches_agree():
    link = L.LSTM(3, 2)
    y1 = link(numpy.ones((2, 3), 'f'))
    assert y1.creator.label == 'LSTMCell'
    y2 = link(numpy.ones((1, 3), 'f'))  # shrinking batch: the composed path
    assert y2.creator.label != 'LSTMCell'


def test_lstm_weight_grads_summed_at_the_end_equal_the_per_step_sums(monkeypatch):
    # a plain backward sums the weights' per-step products at its end; debug mode
    # computes and adds them step by step: both must agree
    from chainer import _deferred_grad

    monkeypatch.setattr(_deferred_grad, 'MIN_SIZE', 1)  # these small weights too

    def grads(debug):
        rng = numpy.random.RandomState(5)
        model = chainer.Sequential(L.LSTM(3, 4), L.LSTM(4, 4))
        for param in model.params():
            param.array[...] = rng.randn(*param.shape)
        xs = rng.randn(7, 2, 3).astype(numpy.float32)
        loss = 0
        for x in xs:
            loss += F.sum(model(x) * rng.randn(2, 4).astype(numpy.float32))
        with chainer.using_config('debug', debug):
            loss.backward()
        return {name: p.grad.copy() for name, p in model.namedparams()}

    plain, stepwise = grads(False), grads(True)
    assert plain.keys() == stepwise.keys()
    for name in plain:
        numpy.testing.assert_allclose(plain[name], stepwise[name], rtol=1e-5, atol=1e-6,
                                      err_msg=name)
