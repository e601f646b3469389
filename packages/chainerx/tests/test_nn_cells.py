"""Activations, LSTM cells and the n-step RNNs: values against NumPy formulas written
here, gradients of the first and second order numerically."""

import numpy
import pytest
from numeric_grad import check_first_and_second_order

import chainerx

rng = numpy.random.RandomState(4)


def _np(a):
    return chainerx.to_numpy(a)


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


ACTIVATIONS = [
    (lambda x: chainerx.clipped_relu(x, 0.75), lambda x: numpy.clip(x, 0, 0.75)),
    (lambda x: chainerx.elu(x, 0.5), lambda x: numpy.where(x > 0, x, 0.5 * numpy.expm1(x))),
    (lambda x: chainerx.leaky_relu(x, 0.3), lambda x: numpy.where(x >= 0, x, 0.3 * x)),
    (lambda x: chainerx.softplus(x, 2.0), lambda x: numpy.log1p(numpy.exp(2 * x)) / 2),
    (lambda x: chainerx.crelu(x, 1),
     lambda x: numpy.concatenate([numpy.maximum(x, 0), numpy.maximum(-x, 0)], 1)),
]


@pytest.mark.parametrize('f,ref', ACTIVATIONS)
def test_activation(f, ref):
    # away from the kinks at 0 and 0.75
    x = rng.uniform(0.1, 0.6, (3, 4)) * rng.choice([-1, 1], (3, 4))
    numpy.testing.assert_allclose(_np(f(chainerx.array(x))), ref(x), rtol=1e-12)
    check_first_and_second_order(f, x)


def test_activations_of_integers_give_float32():
    x = chainerx.array([-2, 0, 3], 'int8')
    for f in (chainerx.elu, chainerx.leaky_relu, chainerx.softplus, chainerx.clipped_relu):
        assert f(x).dtype == chainerx.float32
    numpy.testing.assert_array_equal(_np(chainerx.clipped_relu(x, 2.0)), [0, 0, 2])


def _interleaved(x):
    r = x.reshape(x.shape[0], -1, 4)
    return [r[:, :, j] for j in range(4)]


def test_lstm_cell():
    c, x = rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (2, 8))
    a, i, f, o = _interleaved(x)
    c_new = numpy.tanh(a) * _sigmoid(i) + c[:2] * _sigmoid(f)
    out_c, out_h = chainerx.lstm(chainerx.array(c), chainerx.array(x))
    numpy.testing.assert_allclose(_np(out_c), numpy.concatenate([c_new, c[2:]]), rtol=1e-12)
    numpy.testing.assert_allclose(_np(out_h), _sigmoid(o) * numpy.tanh(c_new), rtol=1e-12)
    check_first_and_second_order(lambda c_, x_: chainerx.lstm(c_, x_)[0], c, x)
    check_first_and_second_order(lambda c_, x_: chainerx.lstm(c_, x_)[1], c, x)


@pytest.mark.parametrize('c_shape,x_shape,dtypes,error', [
    ((2, 3), (3, 12), ('float32', 'float32'), chainerx.DimensionError),
    ((2, 3), (2, 8), ('float32', 'float32'), chainerx.DimensionError),
    ((2, 3), (2, 12), ('float32', 'float64'), chainerx.DtypeError),
    ((2, 3), (2, 12), ('int32', 'int32'), chainerx.DtypeError),
])
def test_lstm_rejects(c_shape, x_shape, dtypes, error):
    with pytest.raises(error):
        chainerx.lstm(chainerx.zeros(c_shape, dtypes[0]), chainerx.zeros(x_shape, dtypes[1]))


def test_slstm_cell():
    c1, c2 = rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 3))
    x1, x2 = rng.uniform(-1, 1, (2, 12)), rng.uniform(-1, 1, (2, 12))
    a1, i1, f1, o1 = _interleaved(x1)
    a2, i2, f2, o2 = _interleaved(x2)
    c = (numpy.tanh(a1) * _sigmoid(i1) + numpy.tanh(a2) * _sigmoid(i2)
         + c1 * _sigmoid(f1) + c2 * _sigmoid(f2))
    out = chainerx.slstm(*[chainerx.array(v) for v in (c1, c2, x1, x2)])
    numpy.testing.assert_allclose(_np(out[0]), c, rtol=1e-12)
    numpy.testing.assert_allclose(_np(out[1]), numpy.tanh(c) * _sigmoid(o1 + o2), rtol=1e-12)
    check_first_and_second_order(lambda *a: chainerx.slstm(*a)[1], c1, c2, x1, x2)


def _ref_step(kind, x, h, c, w, b):
    def lin(j, v):
        return v @ w[j].T + b[j]
    if kind == 'lstm':
        pre = [lin(j, x) + lin(j + 4, h) for j in range(4)]
        c = _sigmoid(pre[1]) * c + _sigmoid(pre[0]) * numpy.tanh(pre[2])
        return _sigmoid(pre[3]) * numpy.tanh(c), c
    if kind == 'gru':
        r = _sigmoid(lin(0, x) + lin(3, h))
        z = _sigmoid(lin(1, x) + lin(4, h))
        new = numpy.tanh(lin(2, x) + r * lin(5, h))
        return new + z * (h - new), c
    return numpy.tanh(lin(0, x) + lin(1, h)), c


def _reference(kind, n_layers, bi, hx, cx, ws, bs, xs):
    """Stacked RNN over steps of non-increasing batch sizes, by the step formulas."""
    n_dir = 2 if bi else 1
    hy, cy = [], []
    for layer in range(n_layers):
        outs = []
        for d in range(n_dir):
            i = layer * n_dir + d
            h, c = hx[i].copy(), cx[i].copy()
            ys = [None] * len(xs)
            order = range(len(xs) - 1, -1, -1) if d else range(len(xs))
            for t in order:
                n = xs[t].shape[0]
                h_new, c_new = _ref_step(kind, xs[t], h[:n], c[:n], ws[i], bs[i])
                h[:n], c[:n] = h_new, c_new
                ys[t] = h_new
            outs.append(ys)
            hy.append(h)
            cy.append(c)
        xs = outs[0] if n_dir == 1 else [numpy.concatenate(p, 1) for p in zip(*outs)]
    return numpy.stack(hy), numpy.stack(cy), xs


@pytest.mark.parametrize('kind,n_weights', [('lstm', 8), ('gru', 6), ('rnn', 2)])
@pytest.mark.parametrize('bi', [False, True])
def test_n_step(kind, n_weights, bi):
    n_layers, units, in_size, batches = 2, 3, 2, (3, 2, 2)
    n_dir = 2 if bi else 1
    hx = rng.uniform(-1, 1, (n_layers * n_dir, batches[0], units))
    cx = rng.uniform(-1, 1, hx.shape)
    xs = [rng.uniform(-1, 1, (n, in_size)) for n in batches]
    ws, bs = [], []
    for layer in range(n_layers):
        for _ in range(n_dir):
            first = in_size if layer == 0 else units * n_dir
            ws.append([rng.uniform(-1, 1, (units, first if j < n_weights // 2 else units))
                       for j in range(n_weights)])
            bs.append([rng.uniform(-1, 1, units) for _ in range(n_weights)])
    name = 'n_step_' + ('bi' if bi else '') + kind
    f = getattr(chainerx, name)

    def run(hx_, cx_, ws_, bs_, xs_):
        if kind == 'lstm':
            return f(n_layers, hx_, cx_, ws_, bs_, xs_)
        hy, ys = f(n_layers, hx_, ws_, bs_, xs_)
        return hy, None, ys

    def arrays(values):
        return [chainerx.array(v) for v in values]

    hy, cy, ys = run(chainerx.array(hx), chainerx.array(cx), [arrays(w) for w in ws],
                     [arrays(b) for b in bs], arrays(xs))
    e_hy, e_cy, e_ys = _reference(kind, n_layers, bi, hx, cx, ws, bs, xs)
    numpy.testing.assert_allclose(_np(hy), e_hy, rtol=1e-12)
    if kind == 'lstm':
        numpy.testing.assert_allclose(_np(cy), e_cy, rtol=1e-12)
    assert len(ys) == len(xs)
    for y, e in zip(ys, e_ys):
        numpy.testing.assert_allclose(_np(y), e, rtol=1e-12)

    # gradients with respect to the initial state, one weight and the first step
    def g(h0, w0, x0):
        ws_ = [arrays(w) for w in ws]
        ws_[0][0] = w0
        _, _, outs = run(h0, chainerx.array(cx), ws_, [arrays(b) for b in bs],
                         [x0] + arrays(xs[1:]))
        return chainerx.concatenate(outs, 0)

    # (second order in one direction: the reverse direction runs the same steps)
    check_first_and_second_order(g, hx, ws[0][0], xs[0], double=not bi)


def test_n_step_rejects_bad_arguments():
    h = chainerx.zeros((1, 2, 3))
    ws = [[chainerx.zeros((3, 2)), chainerx.zeros((3, 3))]]
    bs = [[chainerx.zeros(3), chainerx.zeros(3)]]
    with pytest.raises(ValueError):
        chainerx.n_step_rnn(1, h, ws, bs, [chainerx.zeros((2, 2))], activation='sigmoid')
    with pytest.raises(chainerx.DimensionError):  # increasing batch sizes
        chainerx.n_step_rnn(1, h, ws, bs, [chainerx.zeros((1, 2)), chainerx.zeros((2, 2))])
    with pytest.raises(chainerx.DimensionError):  # two layers, one list of weights
        chainerx.n_step_rnn(2, h, ws, bs, [chainerx.zeros((2, 2))])
