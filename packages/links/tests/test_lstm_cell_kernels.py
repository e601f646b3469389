"""The LSTM cell's compiled CPU kernels give the NumPy path's numbers bit for bit."""

import copy

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

pytest.importorskip('numba', reason='the compiled kernels need Numba (the jit extra)')


def _run_lstm(mode, link, xs, use_c):
    link = copy.deepcopy(link)
    with chainer.using_config('use_numba', mode):
        loss = 0
        for x in xs:
            h = link(x)
            loss += F.sum(h * h)
        if use_c:  # the last cell gets a gradient of its own (gc_out and gh together)
            loss += F.sum(link.c * link.c)
        link.cleargrads()
        loss.backward()
    return [h.array, link.c.array] + [p.grad for _, p in sorted(link.namedparams())]


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.float16])
@pytest.mark.parametrize('batch', [0, 1, 3, 20])
@pytest.mark.parametrize('data', ['random', 'strided', 'special'])
@pytest.mark.parametrize('use_c', [False, True])
def test_lstm_link_is_bit_identical(dtype, batch, data, use_c):
    rng = numpy.random.default_rng(0)
    link = L.LSTM(6, 5)
    link.to_device(numpy)
    for p in link.params():
        p.array = p.array.astype(dtype)
    shape = (batch, 12) if data == 'strided' else (batch, 6)
    xs = [rng.standard_normal(shape).astype(dtype) for _ in range(3)]
    if data == 'strided':
        xs = [x[:, ::2] for x in xs]
    if data == 'special' and batch:
        xs[0][0, 0] = 30  # saturated gates
        xs[1][0, 1] = -30
        xs[2][-1, 2] = numpy.inf
        xs[1][-1, 3] = numpy.nan
    with numpy.errstate(invalid='ignore', over='ignore'):
        ref = _run_lstm('never', link, xs, use_c)
        got = _run_lstm('always', link, xs, use_c)
    for r, g in zip(ref, got, strict=True):
        if r is None:  # a parameter without a gradient (an empty batch)
            assert g is None
            continue
        assert g.dtype == r.dtype and g.shape == r.shape
        assert g.tobytes() == r.tobytes()


@pytest.mark.parametrize('grad_of', ['c', 'h', 'both'])
def test_stateless_lstm_gradients_are_bit_identical(grad_of):
    rng = numpy.random.default_rng(1)
    link = L.StatelessLSTM(4, 3)
    x = rng.standard_normal((2, 4)).astype(numpy.float32)
    c0 = rng.standard_normal((2, 3)).astype(numpy.float32)
    h0 = rng.standard_normal((3, 2)).astype(numpy.float32).T  # not C-contiguous

    def run(mode):
        m = copy.deepcopy(link)
        cv, hv = chainer.Variable(c0.copy()), chainer.Variable(h0.copy())
        with chainer.using_config('use_numba', mode):
            c, h = m(cv, hv, x)
            loss = {"c": F.sum(c), "h": F.sum(h * h), "both": F.sum(c) + F.sum(h)}[grad_of]
            loss.backward()
        return [c.array, h.array, cv.grad, hv.grad] + [
            p.grad for _, p in sorted(m.namedparams())]

    for r, g in zip(run('never'), run('always'), strict=True):
        assert g.tobytes() == r.tobytes()


def test_the_kernels_run_on_numpy_float_arrays(monkeypatch):
    from chainer.links.rnn import _lstm_cell_kernels
    calls = []
    for name in ('gates', 'state', 'backward'):
        real = getattr(_lstm_cell_kernels, name)
        monkeypatch.setattr(_lstm_cell_kernels, name,
                            lambda *a, real=real, name=name: calls.append(name) or real(*a))

    def step(dtype):
        link = L.LSTM(3, 2)
        for p in link.params():
            p.array = p.array.astype(dtype)
        F.sum(link(numpy.ones((2, 3), dtype))).backward()

    with chainer.using_config('use_numba', 'always'):
        step(numpy.float16)
        assert not calls
        step(numpy.float32)
    assert calls == ['gates', 'state', 'backward']
