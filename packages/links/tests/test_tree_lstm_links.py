"""Tests of L.ChildSumTreeLSTM and L.NaryTreeLSTM against NumPy."""

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


def _child_sum(link, cs, hs, x):
    n = link.state_size
    zx = _lin(link.W_x, x)
    h_sum = sum(hs) if hs else numpy.zeros((len(x), n))
    aio = zx[:, :3 * n] + (h_sum @ link.W_h_aio.W.array.T if hs else 0)
    a, i, o = numpy.tanh(aio[:, :n]), _sigmoid(aio[:, n:2 * n]), _sigmoid(aio[:, 2 * n:])
    c = a * i
    for ck, hk in zip(cs, hs, strict=True):
        c = c + _sigmoid(zx[:, 3 * n:] + hk @ link.W_h_f.W.array.T) * ck
    return c, o * numpy.tanh(c)


def _nary(link, cs, hs, x):
    n = link.state_size
    z = _lin(link.W_x, x)
    for k, h in enumerate(hs, 1):
        z = z + h @ getattr(link, f'W_h{k}').W.array.T
    blocks = [z[:, j * n:(j + 1) * n] for j in range(3 + len(cs))]
    c = numpy.tanh(blocks[0]) * _sigmoid(blocks[1])
    for ck, fk in zip(cs, blocks[3:], strict=True):
        c = c + _sigmoid(fk) * ck
    return c, _sigmoid(blocks[2]) * numpy.tanh(c)


def _make(cls, *args):
    with chainer.using_config('dtype', numpy.float64):
        link = cls(*args)
    for p in link.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    return link


@pytest.mark.parametrize('n_children', [0, 1, 3])
def test_child_sum_forward_and_backward(n_children):
    link = _make(L.ChildSumTreeLSTM, 4, 3)
    cs = [numpy.random.randn(2, 3) for _ in range(n_children)]
    hs = [numpy.random.randn(2, 3) for _ in range(n_children)]
    x = numpy.random.randn(2, 4)
    c, h = link(*cs, *hs, x)
    c_e, h_e = _child_sum(link, cs, hs, x)
    numpy.testing.assert_allclose(c.array, c_e, rtol=1e-10)
    numpy.testing.assert_allclose(h.array, h_e, rtol=1e-10)
    gradient_check.check_backward(link, (*cs, *hs, x),
                                  (numpy.random.randn(2, 3), numpy.random.randn(2, 3)),
                                  tuple(link.params()), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize('n_ary', [1, 2])
def test_nary_forward_and_backward(n_ary):
    link = _make(L.NaryTreeLSTM, 4, 3, n_ary)
    cs = [numpy.random.randn(2, 3) for _ in range(n_ary)]
    hs = [numpy.random.randn(2, 3) for _ in range(n_ary)]
    x = numpy.random.randn(2, 4)
    c, h = link(*cs, *hs, x)
    c_e, h_e = _nary(link, cs, hs, x)
    numpy.testing.assert_allclose(c.array, c_e, rtol=1e-10)
    numpy.testing.assert_allclose(h.array, h_e, rtol=1e-10)
    gradient_check.check_backward(link, (*cs, *hs, x),
                                  (numpy.random.randn(2, 3), numpy.random.randn(2, 3)),
                                  tuple(link.params()), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize('cls', [L.ChildSumTreeLSTM, L.NaryTreeLSTM])
def test_none_arguments_count_as_zeros(cls):
    link = _make(cls, 4, 3) if cls is L.ChildSumTreeLSTM else _make(cls, 4, 3, 2)
    ref = _child_sum if cls is L.ChildSumTreeLSTM else _nary
    c1, h1 = numpy.random.randn(2, 2, 3)
    x = numpy.random.randn(2, 4)
    zero = numpy.zeros((2, 3))
    c, h = link(c1, None, h1, None, x)
    numpy.testing.assert_allclose(h.array, ref(link, [c1, zero], [h1, zero], x)[1],
                                  rtol=1e-10)
    c, h = link(c1, None, h1, None, None)
    numpy.testing.assert_allclose(
        h.array, ref(link, [c1, zero], [h1, zero], numpy.zeros((2, 4)))[1], rtol=1e-10)
    with pytest.raises(ValueError, match='None'):
        link(None, None, None, None, None)


def test_bad_argument_counts():
    with pytest.raises(ValueError, match='odd'):
        L.ChildSumTreeLSTM(2, 2)(numpy.zeros((1, 2), 'f'), numpy.zeros((1, 2), 'f'))
    with pytest.raises(ValueError, match='takes 5 arguments'):
        L.NaryTreeLSTM(2, 2, 2)(numpy.zeros((1, 2), 'f'))
    with pytest.raises(ValueError, match='n_ary'):
        L.NaryTreeLSTM(2, 2, 0)
