"""lstm, slstm and tree_lstm: forward vs NumPy, both backward paths, edge shapes, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _sig(x):
    return 1 / (1 + numpy.exp(-x))


def _gates(x, n):
    """Interleaved gates as Chainer lays them out: x[:, n*k + j] is unit k of gate j."""
    x = x.astype(numpy.float64)
    r = x.reshape((x.shape[0], x.shape[1] // n, n) + x.shape[2:])
    return [r[:, :, j] for j in range(n)]


def _ref_lstm(c_prev, x):
    b = len(x)
    a, i, f, o = _gates(x, 4)
    c = c_prev.astype(numpy.float64).copy()
    c[:b] = numpy.tanh(a) * _sig(i) + _sig(f) * c[:b]
    h = _sig(o) * numpy.tanh(c[:b])
    return c, h


def _ref_slstm(c1, c2, x1, x2):
    a1, i1, f1, o1 = _gates(x1, 4)
    a2, i2, f2, o2 = _gates(x2, 4)
    # Each child has its own input gate; only the output gate sums the two sources.
    c = (numpy.tanh(a1) * _sig(i1) + numpy.tanh(a2) * _sig(i2) + _sig(f1) * c1.astype('d')
         + _sig(f2) * c2.astype('d'))
    return c, _sig(o1 + o2) * numpy.tanh(c)


def _ref_tree_lstm(*inputs):
    cs, x = inputs[:-1], inputs[-1].astype(numpy.float64)
    n = 3 + len(cs)
    r = x.reshape((x.shape[0], n, x.shape[1] // n) + x.shape[2:])
    c = numpy.tanh(r[:, 0]) * _sig(r[:, 1])
    for k, ck in enumerate(cs):
        c = c + _sig(r[:, 3 + k]) * ck.astype('d')
    return c, _sig(r[:, 2]) * numpy.tanh(c)


def _cast(pair, dtype):
    return tuple(p.astype(dtype) for p in pair)


@pytest.mark.parametrize('c_shape,x_shape', [((3, 2), (3, 8)), ((3, 2), (2, 8)),
                                             ((2, 2, 3), (2, 8, 3)), ((3, 1), (0, 4))])
def test_lstm_forward(fc, dtype, c_shape, x_shape):
    c = fc.uniform(c_shape, dtype)
    x = fc.uniform(x_shape, dtype, -2, 2)
    fc.check_forward(F.lstm, (c, x), _cast(_ref_lstm(c, x), dtype), dtype)


def test_lstm_gate_layout():
    # one unit: x = [a, i, f, o]
    c = numpy.array([[0.5]], numpy.float64)
    x = numpy.array([[0.3, 100.0, -100.0, 100.0]])
    c_new, h = F.lstm(c, x)
    numpy.testing.assert_allclose(c_new.array, numpy.tanh([[0.3]]))
    numpy.testing.assert_allclose(h.array, numpy.tanh(numpy.tanh([[0.3]])))
    # two units: the gates are interleaved per unit, not in blocks
    x = numpy.array([[0.3, 100, -100, 100, -0.2, 100, -100, -100]], numpy.float64)
    c_new, h = F.lstm(numpy.zeros((1, 2)), x)
    numpy.testing.assert_allclose(c_new.array, numpy.tanh([[0.3, -0.2]]))
    numpy.testing.assert_allclose(h.array[0, 1], 0, atol=1e-30)


@pytest.mark.parametrize('c_shape,x_shape', [((3, 2), (3, 8)), ((3, 2), (2, 8)),
                                             ((2, 1, 2), (2, 4, 2))])
@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_lstm_gradients(fc, dt, c_shape, x_shape):
    c = fc.uniform(c_shape, dt)
    x = fc.uniform(x_shape, dt)
    fc.check_backward(F.lstm, (c, x), dt)
    fc.check_double_backward(F.lstm, (c, x), dt)


def test_lstm_f16_backward(fc):
    c = fc.uniform((2, 2), numpy.float16)
    x = fc.uniform((2, 8), numpy.float16)
    fc.check_backward(F.lstm, (c, x), numpy.float16)


def _both_paths(fn, inputs, gys):
    """First-order gradients without and with enable_double_backprop."""
    res = []
    for double in (False, True):
        vs = [chainer.Variable(a) for a in inputs]
        outs = fn(*vs)
        keep = [(o, g) for o, g in zip(outs, gys) if g is not None]
        grads = chainer.grad([o for o, _ in keep], vs,
                             [chainer.Variable(g) for _, g in keep],
                             enable_double_backprop=double)
        res.append([g.array for g in grads])
    return res


@pytest.mark.parametrize('which', ['both', 'c_only', 'h_only'])
def test_lstm_fast_and_graph_gradients_agree(fc, which):
    c = fc.uniform((3, 2), numpy.float64)
    x = fc.uniform((2, 8), numpy.float64)
    gc = fc.uniform((3, 2), numpy.float64) if which != 'h_only' else None
    gh = fc.uniform((2, 2), numpy.float64) if which != 'c_only' else None
    fast, graph = _both_paths(F.lstm, (c, x), (gc, gh))
    for a, b in zip(fast, graph):
        numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_lstm_one_output_gradient(fc):
    c = fc.uniform((3, 2), numpy.float64)
    x = fc.uniform((2, 8), numpy.float64)
    fc.check_backward(lambda c, x: F.lstm(c, x)[1], (c, x), numpy.float64)
    fc.check_double_backward(lambda c, x: F.lstm(c, x)[0], (c, x), numpy.float64)


def test_lstm_noncontiguous(fc):
    c = fc.uniform((3, 2), numpy.float32)
    x = fc.uniform((3, 8), numpy.float32)
    fc.check_forward(F.lstm, (fc.noncontiguous(c), fc.noncontiguous(x)),
                     _cast(_ref_lstm(c, x), numpy.float32))


def test_lstm_errors():
    c = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(InvalidType):
        F.lstm(c, numpy.zeros((3, 6), numpy.float32))   # not 4 * units
    with pytest.raises(InvalidType):
        F.lstm(c, numpy.zeros((4, 8), numpy.float32))   # bigger batch than c
    with pytest.raises(InvalidType):
        F.lstm(c, numpy.zeros((3, 8), numpy.float64))   # dtype mismatch
    with pytest.raises(InvalidType):
        F.lstm(numpy.zeros(2, numpy.float32), numpy.zeros(8, numpy.float32))
    with pytest.raises(InvalidType):
        F.lstm(numpy.zeros((1, 2, 3), numpy.float32), numpy.zeros((1, 8, 2), numpy.float32))


# -- slstm -----------------------------------------------------------------------

@pytest.mark.parametrize('c_shape,x_shape', [((3, 2), (3, 8)), ((2, 1, 2), (2, 4, 2)),
                                             ((0, 2), (0, 8))])
def test_slstm_forward(fc, dtype, c_shape, x_shape):
    ins = (fc.uniform(c_shape, dtype), fc.uniform(c_shape, dtype),
           fc.uniform(x_shape, dtype), fc.uniform(x_shape, dtype))
    fc.check_forward(F.slstm, ins, _cast(_ref_slstm(*ins), dtype), dtype)


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_slstm_gradients(fc, dt):
    ins = (fc.uniform((2, 2), dt), fc.uniform((2, 2), dt),
           fc.uniform((2, 8), dt), fc.uniform((2, 8), dt))
    fc.check_backward(F.slstm, ins, dt)
    fc.check_double_backward(F.slstm, ins, dt)


@pytest.mark.parametrize('which', ['both', 'c_only', 'h_only'])
def test_slstm_fast_and_graph_gradients_agree(fc, which):
    ins = (fc.uniform((2, 3), numpy.float64), fc.uniform((2, 3), numpy.float64),
           fc.uniform((2, 12), numpy.float64), fc.uniform((2, 12), numpy.float64))
    gc = fc.uniform((2, 3), numpy.float64) if which != 'h_only' else None
    gh = fc.uniform((2, 3), numpy.float64) if which != 'c_only' else None
    fast, graph = _both_paths(F.slstm, ins, (gc, gh))
    for a, b in zip(fast, graph):
        numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_slstm_errors():
    c = numpy.zeros((2, 2), numpy.float32)
    x = numpy.zeros((2, 8), numpy.float32)
    with pytest.raises(InvalidType):
        F.slstm(c, numpy.zeros((2, 3), numpy.float32), x, x)
    with pytest.raises(InvalidType):
        F.slstm(c, c, x, numpy.zeros((2, 4), numpy.float32))
    with pytest.raises(InvalidType):
        F.slstm(c, c, numpy.zeros((3, 8), numpy.float32), numpy.zeros((3, 8), numpy.float32))
    with pytest.raises(InvalidType):
        F.slstm(c.astype('i'), c, x, x)


# -- tree_lstm -----------------------------------------------------------------------

@pytest.mark.parametrize('n_children', [1, 2, 3])
def test_tree_lstm_forward(fc, dtype, n_children):
    cs = [fc.uniform((3, 2), dtype) for _ in range(n_children)]
    x = fc.uniform((3, 2 * (3 + n_children)), dtype, -2, 2)
    ins = tuple(cs) + (x,)
    fc.check_forward(F.tree_lstm, ins, _cast(_ref_tree_lstm(*ins), dtype), dtype)


def test_tree_lstm_block_layout():
    # one unit, two children: x = [a, i, o, f1, f2] in consecutive blocks
    c1 = numpy.array([[0.5]])
    c2 = numpy.array([[0.25]])
    x = numpy.array([[0.0, 0.0, 100.0, 100.0, -100.0]])
    c, h = F.tree_lstm(c1, c2, x)
    numpy.testing.assert_allclose(c.array, [[0.5]])
    numpy.testing.assert_allclose(h.array, numpy.tanh([[0.5]]))


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
@pytest.mark.parametrize('shape', [(2, 2), (2, 1, 2)])
def test_tree_lstm_gradients(fc, dt, shape):
    cs = (fc.uniform(shape, dt), fc.uniform(shape, dt))
    x = fc.uniform((shape[0], 5 * shape[1]) + shape[2:], dt)
    fc.check_backward(F.tree_lstm, cs + (x,), dt)
    fc.check_double_backward(F.tree_lstm, cs + (x,), dt)


@pytest.mark.parametrize('which', ['both', 'c_only', 'h_only'])
def test_tree_lstm_fast_and_graph_gradients_agree(fc, which):
    ins = (fc.uniform((2, 3), numpy.float64), fc.uniform((2, 3), numpy.float64),
           fc.uniform((2, 3), numpy.float64), fc.uniform((2, 18), numpy.float64))
    gc = fc.uniform((2, 3), numpy.float64) if which != 'h_only' else None
    gh = fc.uniform((2, 3), numpy.float64) if which != 'c_only' else None
    fast, graph = _both_paths(F.tree_lstm, ins, (gc, gh))
    for a, b in zip(fast, graph):
        numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_tree_lstm_edges_and_errors(fc):
    c = numpy.zeros((2, 2), numpy.float32)
    c_new, h = F.tree_lstm(numpy.zeros((0, 2), 'f'), numpy.zeros((0, 8), 'f'))
    assert c_new.shape == h.shape == (0, 2)
    x = fc.uniform((2, 10), numpy.float32)
    fc.check_forward(F.tree_lstm, (c, fc.noncontiguous(c), fc.noncontiguous(x)),
                     _cast(_ref_tree_lstm(c, c, x), numpy.float32))
    with pytest.raises(InvalidType):
        F.tree_lstm(c)
    with pytest.raises(InvalidType):
        F.tree_lstm(c, numpy.zeros((2, 6), numpy.float32))      # needs 4 blocks for 1 child
    with pytest.raises(InvalidType):
        F.tree_lstm(c, numpy.zeros((2, 3), numpy.float32), x)   # children differ
    with pytest.raises(InvalidType):
        F.tree_lstm(c, numpy.zeros((3, 8), numpy.float32))


# -- GPU ---------------------------------------------------------------------------------

@pytest.mark.gpu
def test_lstm_family_gpu(fc):
    cupy = pytest.importorskip('cupy')
    c = fc.uniform((3, 2), numpy.float32)
    x = fc.uniform((2, 8), numpy.float32)
    cg, hg = F.lstm(cupy.asarray(c), cupy.asarray(x))
    rc, rh = _ref_lstm(c, x)
    numpy.testing.assert_allclose(cupy.asnumpy(cg.array), rc, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(cupy.asnumpy(hg.array), rh, rtol=1e-5, atol=1e-6)
    fc.check_backward(F.lstm, (cupy.asarray(c), cupy.asarray(x)), numpy.float32)
    fc.check_double_backward(F.lstm, (cupy.asarray(c), cupy.asarray(x)), numpy.float32)
    ins = [cupy.asarray(fc.uniform(s, numpy.float32)) for s in [(2, 2), (2, 2), (2, 8), (2, 8)]]
    fc.check_backward(F.slstm, tuple(ins), numpy.float32)
    ins = [cupy.asarray(fc.uniform(s, numpy.float32)) for s in [(2, 2), (2, 2), (2, 10)]]
    fc.check_backward(F.tree_lstm, tuple(ins), numpy.float32)


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('used', ['c', 'h', 'both'])
def test_lstm_gpu_matches_cpu(fc, dtype, used):
    # the fused kernels (float32/64) and the fallback (float16) against the CPU, with a
    # batch shorter than c_prev and with either output's gradient absent
    cupy = pytest.importorskip('cupy')
    c = fc.uniform((4, 3), dtype)
    x = fc.uniform((3, 12), dtype)
    gy = fc.uniform((3, 3), dtype)

    def grads(xp):
        cv = chainer.Variable(xp.asarray(c))
        xv = chainer.Variable(xp.asarray(x))
        c_new, h = F.lstm(cv, xv)
        loss = {'c': F.sum(c_new[:3] * xp.asarray(gy)), 'h': F.sum(h * xp.asarray(gy)),
                'both': F.sum(c_new[:3] * h)}[used]
        gc, gx = chainer.grad([loss], [cv, xv])
        return [cupy.asnumpy(a) for a in (c_new.array, h.array, gc.array, gx.array)]

    tol = {'rtol': 1e-2, 'atol': 1e-2} if dtype == numpy.float16 else {'rtol': 1e-5,
                                                                        'atol': 1e-6}
    for got, want in zip(grads(cupy), grads(numpy)):
        numpy.testing.assert_allclose(got, want, **tol)
