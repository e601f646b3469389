"""Tests of the GRU links (StatelessGRU, StatefulGRU, GRU) and the MGU links."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lin(link, x):
    y = x @ link.W.array.T
    return y if link.b is None else y + link.b.array


def _gru(link, h, x):
    r = _sigmoid(_lin(link.W_r, x) + _lin(link.U_r, h))
    z = _sigmoid(_lin(link.W_z, x) + _lin(link.U_z, h))
    h_bar = numpy.tanh(_lin(link.W, x) + _lin(link.U, r * h))
    return z * h_bar + (1 - z) * h


def _randomize(link):
    for p in link.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)


def test_stateless_gru_forward_and_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = L.StatelessGRU(3, 4)
    _randomize(link)
    h = numpy.random.randn(2, 4)
    x = numpy.random.randn(2, 3)
    numpy.testing.assert_allclose(link(h, x).array, _gru(link, h, x), rtol=1e-10)
    gradient_check.check_backward(link, (h, x), numpy.random.randn(2, 4),
                                  tuple(link.params()), atol=1e-5, rtol=1e-5)


def test_stateless_gru_lazy_input_size():
    link = L.StatelessGRU(None, 4)
    y = link(numpy.zeros((2, 4), 'f'), numpy.ones((2, 6), 'f'))
    assert y.shape == (2, 4) and link.W_r.W.shape == (4, 6)


@pytest.mark.parametrize('cls', [L.StatefulGRU, L.GRU])
def test_stateful_gru_keeps_state(cls):
    link = cls(3, 4)
    _randomize(link)
    x1, x2 = numpy.random.randn(2, 2, 3).astype('f')
    y1 = link(x1)
    z = _sigmoid(_lin(link.W_z, x1))
    expected = z * numpy.tanh(_lin(link.W, x1))
    numpy.testing.assert_allclose(y1.array, expected, rtol=1e-5, atol=1e-6)
    y2 = link(x2)
    numpy.testing.assert_allclose(y2.array, _gru(link, expected, x2), rtol=1e-5, atol=1e-6)
    assert link.h is y2
    link.reset_state()
    assert link.h is None
    h = chainer.Variable(numpy.ones((2, 4), 'f'))
    link.set_state(h)
    numpy.testing.assert_allclose(link(x1).array, _gru(link, numpy.ones((2, 4)), x1),
                                  rtol=1e-5, atol=1e-6)


def test_stateful_gru_default_bias_is_zero():
    link = L.StatefulGRU(2, 3)
    assert all((lin.b.array == 0).all() for lin in (link.W_r, link.U_r, link.W))


def test_gru_rejects_stateless_calls():
    link = L.GRU(3, 3)
    x = numpy.zeros((1, 3), 'f')
    with pytest.raises(ValueError, match='StatelessGRU'):
        link(x, x)
    with pytest.raises(ValueError):
        link()
    with pytest.raises(ValueError):
        link(x, x, x)


def _mgu(link, h, x):
    f = _sigmoid(_lin(link.W_f, numpy.concatenate([h, x], 1)))
    h_bar = numpy.tanh(_lin(link.W_h, numpy.concatenate([f * h, x], 1)))
    return f * h_bar + (1 - f) * h


def test_mgu_stateless_and_stateful():
    link = L.StatelessMGU(3, 2)
    h = numpy.random.randn(4, 2).astype('f')
    x = numpy.random.randn(4, 3).astype('f')
    numpy.testing.assert_allclose(link(h, x).array, _mgu(link, h, x), rtol=1e-5, atol=1e-6)
    stateful = L.StatefulMGU(3, 2)
    y1 = stateful(x)
    h1 = _mgu(stateful, numpy.zeros((4, 2), 'f'), x)
    numpy.testing.assert_allclose(y1.array, h1, rtol=1e-5, atol=1e-6)
    y2 = stateful(x)
    numpy.testing.assert_allclose(y2.array, _mgu(stateful, h1, x), rtol=1e-5, atol=1e-6)
    stateful.reset_state()
    assert stateful.h is None
    with pytest.raises(TypeError, match='Variable'):
        stateful.set_state(numpy.zeros((4, 2), 'f'))


def test_mgu_state_dtype_follows_config():
    with chainer.using_config('dtype', numpy.float64):
        link = L.StatefulMGU(2, 3)
        y = link(numpy.zeros((1, 2)))
    assert y.dtype == numpy.float64
