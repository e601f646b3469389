"""forget: same values and gradients as calling the function directly, without
keeping the intermediate results."""

import gc
import weakref

import numpy
import pytest

import chainer
import chainer.functions as F


def _f(a, b):
    return F.tanh(a * b) + a


def _multi(a, b):
    return a * b, F.sigmoid(a - b), F.sum(a)


def _grads(fn, arrays, gys, double=False):
    vs = [chainer.Variable(a) for a in arrays]
    outs = fn(*vs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    pairs = [(y, g) for y, g in zip(outs, gys) if g is not None]
    gs = chainer.grad([y for y, _ in pairs], vs, [chainer.Variable(g) for _, g in pairs],
                      enable_double_backprop=double)
    return [y.array for y in outs], [None if g is None else g.array for g in gs]


def test_forget_same_values_and_gradients(fc, dtype):
    a = fc.uniform((3, 4), dtype)
    b = fc.uniform((3, 4), dtype)
    gy = fc.uniform((3, 4), dtype)
    direct = _grads(_f, (a, b), (gy,))
    forgot = _grads(lambda x, y: F.forget(_f, x, y), (a, b), (gy,))
    for d, f in zip(direct[0] + direct[1], forgot[0] + forgot[1]):
        assert d.dtype == f.dtype == dtype
        numpy.testing.assert_array_equal(d, f)


def test_forget_multiple_outputs(fc):
    a = fc.uniform((3, 4), numpy.float64)
    b = fc.uniform((3, 4), numpy.float64)
    gys = (fc.uniform((3, 4), numpy.float64), None, numpy.asarray(0.5))
    outs = F.forget(_multi, a, b)
    assert isinstance(outs, tuple) and len(outs) == 3
    direct = _grads(_multi, (a, b), gys)
    forgot = _grads(lambda x, y: F.forget(_multi, x, y), (a, b), gys)
    for d, f in zip(direct[0] + direct[1], forgot[0] + forgot[1]):
        numpy.testing.assert_allclose(d, f, rtol=1e-15)
    fc.check_backward(lambda x, y: F.forget(_multi, x, y)[:2], (a, b), numpy.float64)


def test_forget_tuple_of_one_is_unwrapped(fc):
    a = fc.uniform((2,), numpy.float32)
    y = F.forget(lambda x: (x * 2,), a)     # as in v7: one output gives a Variable
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_array_equal(y.array, a * 2)
    y = F.forget(lambda x: x * 2, a)
    assert isinstance(y, chainer.Variable)
    assert y.requires_grad   # arrays become Variables that require gradients


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_forget_gradient_checks(fc, dt):
    a = fc.uniform((3, 2), dt)
    b = fc.uniform((3, 2), dt)
    fc.check_backward(lambda x, y: F.forget(_f, x, y), (a, b), dt)
    fc.check_backward(lambda x, y: F.forget(_multi, x, y), (a, b), dt)


def test_forget_double_backprop_is_refused(fc):
    a = chainer.Variable(fc.uniform((3, 2), numpy.float64))
    y = F.forget(_f, a, a)
    with pytest.raises(RuntimeError, match='double backpropagation'):
        chainer.grad([y], [a], [chainer.Variable(numpy.ones_like(y.array))],
                     enable_double_backprop=True)
    y = F.forget(lambda v: v, a)     # the same with an identity function
    y.grad_var = chainer.Variable(numpy.ones_like(y.array))
    with pytest.raises(RuntimeError, match='double backpropagation'):
        y.backward(enable_double_backprop=True)


def test_forget_gives_parameters_their_gradients(fc):
    W = chainer.Variable(fc.uniform((3, 4), numpy.float64))
    x = fc.uniform((5, 3), numpy.float64)
    gy = fc.uniform((5, 4), numpy.float64)
    xv = chainer.Variable(x)
    y = F.forget(lambda v: F.tanh(F.matmul(v, W)), xv)   # W is not an input of forget
    y.grad = gy
    y.backward()
    gz = gy * (1 - numpy.tanh(x @ W.array) ** 2)
    numpy.testing.assert_allclose(W.grad, x.T @ gz, rtol=1e-12)
    numpy.testing.assert_allclose(xv.grad, gz @ W.array.T, rtol=1e-12)


def test_forget_keeps_no_intermediate_results(fc):
    a = chainer.Variable(fc.uniform((3, 4), numpy.float32))
    refs = []

    def f(x):
        h = x * 2
        refs.append(weakref.ref(h))
        return F.sum(F.tanh(h))

    y = F.forget(f, a)
    gc.collect()
    assert refs[0]() is None     # the intermediate Variable is gone after forward
    assert y.creator_node.label == 'Forget'
    y.backward()
    assert len(refs) == 2        # recomputed in backward
    numpy.testing.assert_allclose(a.grad, 2 * (1 - numpy.tanh(2 * a.array) ** 2), rtol=1e-5)


def test_forget_recomputes_in_recomputing_mode(fc):
    seen = []

    def f(x):
        seen.append((chainer.config.in_recomputing, chainer.config.enable_backprop))
        return x * 3

    a = chainer.Variable(fc.uniform((2,), numpy.float32))
    y = F.forget(f, a)
    F.sum(y).backward()
    assert seen == [(False, False), (True, True)]
    numpy.testing.assert_allclose(a.grad, [3, 3])


def test_forget_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    y = F.forget(F.relu, fc.noncontiguous(x))
    numpy.testing.assert_array_equal(y.array, numpy.maximum(x, 0))
    e = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    F.sum(F.forget(F.tanh, e)).backward()
    assert e.grad.shape == (0, 3)
    c = chainer.Variable(x, requires_grad=False)
    z = F.forget(lambda u, v: u * v, chainer.Variable(x), c)
    F.sum(z).backward()
    assert c.grad is None
    with pytest.raises(TypeError):
        F.forget(3, x)
    with pytest.raises(RuntimeError, match='float'):
        F.forget(lambda u: 1.0, x)
    with pytest.raises(RuntimeError, match='3rd.*ndarray'):
        F.forget(lambda u: (u, u, u.array), x)
    with pytest.raises(RuntimeError, match='12th.*int'):
        F.forget(lambda u: (u,) * 11 + (1,), x)
    with pytest.raises(RuntimeError, match='list'):
        F.forget(lambda u: [u], x)
    state = {'n': 0}

    def flaky(u):
        state['n'] += 1
        return (u, u) if state['n'] > 1 else u

    with pytest.raises(RuntimeError, match='outputs'):
        F.sum(F.forget(flaky, chainer.Variable(x))).backward()


@pytest.mark.gpu
def test_forget_gpu(fc):
    cupy = pytest.importorskip('cupy')
    a = cupy.asarray(fc.uniform((3, 4), numpy.float32))
    b = cupy.asarray(fc.uniform((3, 4), numpy.float32))
    fc.check_backward(lambda x, y: F.forget(_f, x, y), (a, b), numpy.float32)
