"""n_step_lstm/gru/rnn and their bidirectional forms: forward vs a NumPy reference over
variable-length batches, gradients (fast path and double backprop), dropout, errors;
and the v7 gradient functions LSTMGrad and SLSTMGrad."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.functions.rnn import lstm as lstm_module
from chainer.functions.rnn import slstm as slstm_module


def _sig(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_cell(x, h, c, w, b):
    i = _sig(x @ w[0].T + h @ w[4].T + b[0] + b[4])
    f = _sig(x @ w[1].T + h @ w[5].T + b[1] + b[5])
    a = numpy.tanh(x @ w[2].T + h @ w[6].T + b[2] + b[6])
    o = _sig(x @ w[3].T + h @ w[7].T + b[3] + b[7])
    c = f * c + i * a
    return o * numpy.tanh(c), c


def _gru_cell(x, h, c, w, b):
    r = _sig(x @ w[0].T + b[0] + h @ w[3].T + b[3])
    z = _sig(x @ w[1].T + b[1] + h @ w[4].T + b[4])
    n = numpy.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
    return (1 - z) * n + z * h, None


def _rnn_cell(act):
    def cell(x, h, c, w, b):
        y = x @ w[0].T + b[0] + h @ w[1].T + b[1]
        return (numpy.tanh(y) if act == 'tanh' else numpy.maximum(y, 0)), None
    return cell


def _reference(cell, n_layers, n_dir, hx, cx, ws, bs, xs):
    """A step-by-step float64 reference: the last states and the outputs."""
    hy = hx.astype(numpy.float64).copy()
    cy = None if cx is None else cx.astype(numpy.float64).copy()
    seq = [x.astype(numpy.float64) for x in xs]
    for layer in range(n_layers):
        outs = []
        for d in range(n_dir):
            k = layer * n_dir + d
            ys = [None] * len(seq)
            order = range(len(seq)) if d == 0 else reversed(range(len(seq)))
            for t in order:
                b = len(seq[t])
                h, c = cell(seq[t], hy[k, :b], None if cy is None else cy[k, :b], ws[k], bs[k])
                hy[k, :b] = h
                if c is not None:
                    cy[k, :b] = c
                ys[t] = h
            outs.append(ys)
        seq = [numpy.concatenate(parts, axis=1) for parts in zip(*outs)]
    return hy, cy, seq


def _params(rng, n_layers, n_dir, in_size, units, n_w, dtype):
    ws, bs = [], []
    for layer in range(n_layers):
        for _ in range(n_dir):
            size = in_size if layer == 0 else units * n_dir
            ws.append([rng.uniform(-1, 1, (units, size if j < n_w // 2 else units))
                       .astype(dtype) for j in range(n_w)])
            bs.append([rng.uniform(-1, 1, units).astype(dtype) for _ in range(n_w)])
    return ws, bs


KINDS = {
    'lstm': (8, _lstm_cell, True),
    'gru': (6, _gru_cell, False),
    'rnn_tanh': (2, _rnn_cell('tanh'), False),
    'rnn_relu': (2, _rnn_cell('relu'), False),
}


def _call(kind, bi, n_layers, ratio, hx, cx, ws, bs, xs):
    """Run the function of ``kind``; returns (hy, cy or None, ys)."""
    if kind == 'lstm':
        f = F.n_step_bilstm if bi else F.n_step_lstm
        return f(n_layers, ratio, hx, cx, ws, bs, xs)
    if kind == 'gru':
        hy, ys = (F.n_step_bigru if bi else F.n_step_gru)(n_layers, ratio, hx, ws, bs, xs)
    else:
        f = F.n_step_birnn if bi else F.n_step_rnn
        hy, ys = f(n_layers, ratio, hx, ws, bs, xs, activation=kind[4:])
    return hy, None, ys


def _setup(kind, bi, n_layers, batches, dtype, seed=0, in_size=3, units=4):
    rng = numpy.random.RandomState(seed)
    n_w, _, use_cell = KINDS[kind]
    n_dir = 2 if bi else 1
    xs = [rng.uniform(-1, 1, (b, in_size)).astype(dtype) for b in batches]
    shape = (n_layers * n_dir, batches[0], units)
    hx = rng.uniform(-1, 1, shape).astype(dtype)
    cx = rng.uniform(-1, 1, shape).astype(dtype) if use_cell else None
    ws, bs = _params(rng, n_layers, n_dir, in_size, units, n_w, dtype)
    return hx, cx, ws, bs, xs


@pytest.mark.parametrize('kind', sorted(KINDS))
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
@pytest.mark.parametrize('n_layers,batches', [(1, (1,)), (2, (3, 3, 2, 1)), (3, (2, 1, 1))])
def test_forward(kind, bi, n_layers, batches):
    hx, cx, ws, bs, xs = _setup(kind, bi, n_layers, batches, numpy.float32)
    hy, cy, ys = _call(kind, bi, n_layers, 0.0, hx, cx, ws, bs, xs)
    e_hy, e_cy, e_ys = _reference(KINDS[kind][1], n_layers, 2 if bi else 1, hx, cx, ws, bs,
                                  xs)
    assert isinstance(ys, tuple) and len(ys) == len(xs)
    tol = {'atol': 1e-5, 'rtol': 1e-4}
    numpy.testing.assert_allclose(hy.array, e_hy, **tol)
    if cy is not None:
        numpy.testing.assert_allclose(cy.array, e_cy, **tol)
    for y, e in zip(ys, e_ys):
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, e, **tol)


@pytest.mark.parametrize('kind', ['lstm', 'gru', 'rnn_tanh'])
def test_float16_and_float64(kind):
    for dtype, tol in ((numpy.float16, 2e-2), (numpy.float64, 1e-12)):
        hx, cx, ws, bs, xs = _setup(kind, True, 2, (3, 2), dtype)
        hy, cy, ys = _call(kind, True, 2, 0.0, hx, cx, ws, bs, xs)
        e_hy, _, e_ys = _reference(KINDS[kind][1], 2, 2, hx, cx, ws, bs, xs)
        assert hy.dtype == dtype and ys[0].dtype == dtype
        numpy.testing.assert_allclose(hy.array, e_hy, atol=tol, rtol=tol)
        numpy.testing.assert_allclose(ys[1].array, e_ys[1], atol=tol, rtol=tol)


def _flat_function(kind, bi, n_layers, n_steps, n_w, use_cell):
    """The function of the flat input list (hx, [cx,] xs..., ws..., bs...)."""
    n_lw = n_layers * (2 if bi else 1)

    def f(*args):
        hx, args = args[0], args[1:]
        cx = None
        if use_cell:
            cx, args = args[0], args[1:]
        xs, rest = args[:n_steps], args[n_steps:]
        ws = [list(rest[i * n_w:(i + 1) * n_w]) for i in range(n_lw)]
        rest = rest[n_lw * n_w:]
        bs = [list(rest[i * n_w:(i + 1) * n_w]) for i in range(n_lw)]
        hy, cy, ys = _call(kind, bi, n_layers, 0.0, hx, cx, ws, bs, xs)
        return (hy,) + (() if cy is None else (cy,)) + tuple(ys)
    return f


@pytest.mark.parametrize('kind', sorted(KINDS))
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_gradients(kind, bi):
    n_w, _, use_cell = KINDS[kind]
    batches = (3, 2, 2)
    hx, cx, ws, bs, xs = _setup(kind, bi, 2, batches, numpy.float64, seed=1)
    if kind == 'rnn_relu':  # keep away from the kink of relu
        bs = [[b + 0.5 for b in bb] for bb in bs]
    flat = [hx] + ([cx] if use_cell else []) + xs + [w for ww in ws for w in ww] \
        + [b for bb in bs for b in bb]
    f = _flat_function(kind, bi, 2, len(batches), n_w, use_cell)
    rng = numpy.random.RandomState(2)
    gys = [rng.uniform(-1, 1, y.shape) for y in f(*flat)]
    gradient_check.check_backward(f, flat, gys, atol=1e-5, rtol=1e-5)
    if (kind == 'lstm' and not bi) or (kind == 'gru' and bi):
        ggs = [rng.uniform(-1, 1, a.shape) for a in flat]
        gradient_check.check_double_backward(f, flat, gys, ggs, atol=1e-5, rtol=1e-5)


def test_output_gradient_subsets():
    # hy alone, cy alone, one step of ys alone: the unused outputs get no gradient
    hx, cx, ws, bs, xs = _setup('lstm', False, 2, (3, 1), numpy.float64)
    flat = [hx, cx] + xs + [w for ww in ws for w in ww] + [b for bb in bs for b in bb]
    f = _flat_function('lstm', False, 2, 2, 8, True)
    for k in range(4):
        def g(*args, k=k):
            return f(*args)[k]
        gy = numpy.random.uniform(-1, 1, g(*flat).shape)
        gradient_check.check_backward(g, flat, gy, atol=1e-5, rtol=1e-5)


def test_hidden_state_none_is_zeros():
    hx, cx, ws, bs, xs = _setup('lstm', False, 1, (2, 2), numpy.float32)
    a = F.n_step_lstm(1, 0.0, None, None, ws, bs, xs)
    b = F.n_step_lstm(1, 0.0, numpy.zeros_like(hx), numpy.zeros_like(cx), ws, bs, xs)
    for u, v in zip((a[0], a[1]) + a[2], (b[0], b[1]) + b[2]):
        numpy.testing.assert_array_equal(u.array, v.array)


def test_dropout_between_layers_only():
    hx, cx, ws, bs, xs = _setup('lstm', False, 2, (4, 4), numpy.float32)
    ref = F.n_step_lstm(2, 0.0, hx, cx, ws, bs, xs)
    with chainer.using_config('train', False):
        test_mode = F.n_step_lstm(2, 0.9, hx, cx, ws, bs, xs)
    numpy.testing.assert_allclose(test_mode[2][1].array, ref[2][1].array, rtol=1e-6)
    dropped = F.n_step_lstm(2, 0.9, hx, cx, ws, bs, xs)
    # the first layer's input is never dropped: its states are unchanged
    numpy.testing.assert_allclose(dropped[0].array[0], ref[0].array[0], rtol=1e-6)
    assert not numpy.allclose(dropped[0].array[1], ref[0].array[1])


@pytest.mark.parametrize('kind', ['lstm', 'gru', 'rnn_tanh'])
def test_bad_input(kind):
    n_w = KINDS[kind][0]
    hx, cx, ws, bs, xs = _setup(kind, False, 2, (3, 2), numpy.float32)
    with pytest.raises(ValueError, match='hx'):
        _call(kind, False, 2, 0.0, hx[:1], cx, ws, bs, xs)
    with pytest.raises(ValueError, match='non-increasing'):
        _call(kind, False, 2, 0.0, hx[:, :2], None if cx is None else cx[:, :2], ws, bs,
              xs[::-1])
    with pytest.raises(ValueError, match='ws'):
        _call(kind, False, 2, 0.0, hx, cx, ws[:1], bs, xs)
    with pytest.raises(ValueError, match=r'bs\[1\]'):
        _call(kind, False, 2, 0.0, hx, cx, ws, [bs[0], bs[1][:n_w - 1]], xs)
    with pytest.raises(ValueError, match='n_layers'):
        _call(kind, False, 0, 0.0, hx, cx, ws, bs, xs)
    bad = [list(w) for w in ws]
    bad[1][0] = numpy.zeros((4, 5), numpy.float32)
    with pytest.raises(chainer.utils.type_check.InvalidType, match=r'ws\[1\]\[0\]'):
        _call(kind, False, 2, 0.0, hx, cx, bad, bs, xs)
    with pytest.raises(chainer.utils.type_check.InvalidType):
        _call(kind, False, 2, 0.0, hx.astype(numpy.float64), cx, ws, bs, xs)


def test_removed_arguments_and_activation():
    hx, _, ws, bs, xs = _setup('rnn_tanh', False, 1, (2,), numpy.float32)
    with pytest.raises(ValueError, match='train'):
        F.n_step_rnn(1, 0.0, hx, ws, bs, xs, train=True)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.n_step_gru(1, 0.0, hx, ws, bs, xs, use_cudnn=True)
    with pytest.raises(ValueError, match='activation'):
        F.n_step_rnn(1, 0.0, hx, ws, bs, xs, activation='sigmoid')


@pytest.mark.parametrize('batch', [3, 1, 0])
def test_lstm_grad_function(batch):
    rng = numpy.random.RandomState(batch)
    inputs = [rng.uniform(-1, 1, s) for s in
              [(3, 2), (batch, 8), (3, 2), (3, 2), (batch, 2)]]
    c_prev, x, _, gc, gh = inputs
    # with c_next the output of F.lstm, it is the gradient of F.lstm
    xs = [chainer.Variable(c_prev), chainer.Variable(x)]
    c, h = F.lstm(*xs)
    inputs[2] = c.array
    gc_prev, gx = lstm_module.LSTMGrad()(*inputs)
    e_gc, e_gx = chainer.grad([c, h], xs, [gc, gh])
    numpy.testing.assert_allclose(gc_prev.array, e_gc.array, rtol=1e-12)
    numpy.testing.assert_allclose(gx.array, e_gx.array, rtol=1e-12)
    ggs = [rng.uniform(-1, 1, a.shape) for a in (c_prev, x)]
    gradient_check.check_backward(lstm_module.LSTMGrad(), inputs, ggs)


def test_slstm_grad_function():
    rng = numpy.random.RandomState(0)
    inputs = [rng.uniform(-1, 1, s) for s in
              [(2, 3), (2, 3), (2, 12), (2, 12), (2, 3), (2, 3), (2, 3)]]
    ggs = [rng.uniform(-1, 1, s) for s in [(2, 3), (2, 3), (2, 12), (2, 12)]]
    gradient_check.check_backward(slstm_module.SLSTMGrad(), inputs, ggs)
