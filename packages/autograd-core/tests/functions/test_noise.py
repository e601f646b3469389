"""Noise functions: dropout, gaussian, gumbel_softmax, simplified_dropconnect, zoneout.

Random outputs are checked structurally (masks consistent between forward and
backward, expected scaling, statistics with a fixed seed, identity in test mode);
gradients are checked numerically with the randomness fixed (given masks/noise).
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _d(x):
    return x.astype(numpy.float64)


# -- dropout -------------------------------------------------------------------------

def test_dropout_train_structure(dtype):
    x = numpy.random.uniform(1, 2, (50, 40)).astype(dtype)
    y, mask = F.dropout(x, 0.25, return_mask=True)
    assert y.dtype == dtype and mask.dtype == dtype and mask.shape == x.shape
    scale = numpy.asarray(1 / 0.75, dtype)
    assert set(numpy.unique(mask).tolist()) <= {0.0, float(scale)}
    numpy.testing.assert_allclose(y.array, x * mask, rtol=1e-3)
    assert abs((mask == 0).mean() - 0.25) < 0.03
    assert abs(_d(y.array).mean() / _d(x).mean() - 1) < 0.05


def test_dropout_mask_consistent_in_backward():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (6, 7)).astype(numpy.float32))
    y, mask = F.dropout(x, 0.5, return_mask=True)
    gy = numpy.random.uniform(-1, 1, y.shape).astype(numpy.float32)
    y.grad = gy
    y.backward()
    numpy.testing.assert_allclose(x.grad, gy * mask)
    assert ((x.grad == 0) == (y.array == 0)).all()


def test_dropout_given_mask_is_reused(fc, dtype):
    x = fc.uniform((3, 4), dtype)
    _, mask = F.dropout(x, 0.4, return_mask=True)
    y1, m1 = F.dropout(x, 0.9, mask=mask, return_mask=True)   # ratio ignored
    assert m1 is mask or numpy.array_equal(m1, mask)
    fc.check_forward(lambda v: F.dropout(v, mask=mask), (x,), (_d(x) * _d(mask)).astype(dtype),
                     dtype)
    numpy.testing.assert_array_equal(y1.array, F.dropout(x, mask=mask).array)


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_dropout_gradients(fc, dt):
    x = fc.uniform((3, 4), dt)
    _, mask = F.dropout(x, 0.5, return_mask=True)
    f = lambda v: F.dropout(v, mask=mask.astype(v.dtype))  # noqa: E731
    fc.check_backward(f, (x,), dt)
    fc.check_double_backward(f, (x,), dt)


def test_dropout_test_mode_is_identity(fc):
    x = fc.uniform((3, 4), numpy.float32)
    v = chainer.Variable(x)
    with chainer.using_config('train', False):
        assert F.dropout(v) is v
        y = F.dropout(x, 0.7)
        assert isinstance(y, chainer.Variable)
        numpy.testing.assert_array_equal(y.array, x)
        y, mask = F.dropout(x, return_mask=True)
        assert mask is None


def test_dropout_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    y, mask = F.dropout(fc.noncontiguous(x), return_mask=True)
    numpy.testing.assert_allclose(y.array, x * mask)
    assert F.dropout(numpy.zeros((0, 3), numpy.float32)).shape == (0, 3)
    s, m = F.dropout(numpy.asarray(2.0, numpy.float32), 0.0, return_mask=True)
    assert s.shape == () and float(s.array) == 2.0
    assert isinstance(m, numpy.ndarray) and m.shape == () and m.dtype == numpy.float32
    numpy.testing.assert_array_equal(F.dropout(x, 0.0).array, x)
    with pytest.raises(ValueError):
        F.dropout(x, 1.0)
    with pytest.raises(ValueError):
        F.dropout(x, -0.1)
    with pytest.raises(ValueError, match='using_config'):
        F.dropout(x, train=False)
    with pytest.raises(TypeError):
        F.dropout(x, foo=1)
    with pytest.raises(InvalidType):
        F.dropout(numpy.arange(3))
    with pytest.raises(InvalidType):
        F.dropout(x, mask=numpy.ones((4, 3), numpy.float32))


def test_dropout_seed_reproducible():
    x = numpy.ones((5, 5), numpy.float32)
    numpy.random.seed(3)
    a = F.dropout(x).array
    numpy.random.seed(3)
    b = F.dropout(x).array
    numpy.testing.assert_array_equal(a, b)


# -- gaussian ----------------------------------------------------------------------------

def test_gaussian_forward_with_eps(fc, dtype):
    m = fc.uniform((3, 4), dtype)
    v = fc.uniform((3, 4), dtype)
    eps = fc.uniform((3, 4), dtype)
    ref = _d(m) + numpy.exp(_d(v) / 2) * _d(eps)
    fc.check_forward(lambda a, b: F.gaussian(a, b, eps=eps), (m, v), ref.astype(dtype), dtype)
    y, e = F.gaussian(m, v, return_eps=True)
    assert e.shape == m.shape and e.dtype == dtype
    numpy.testing.assert_allclose(_d(y.array), _d(m) + numpy.exp(_d(v) / 2) * _d(e),
                                  rtol=1e-2 if dtype == numpy.float16 else 1e-5)


def test_gaussian_statistics():
    m = numpy.full((200, 100), 2.0, numpy.float32)
    v = numpy.full((200, 100), numpy.log(0.25), numpy.float32)
    y = F.gaussian(m, v).array
    assert abs(y.mean() - 2.0) < 0.01
    assert abs(y.std() - 0.5) < 0.01
    with chainer.using_config('train', False):   # samples in test mode too
        assert F.gaussian(m, v).array.std() > 0.4


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_gaussian_gradients(fc, dt):
    m = fc.uniform((3, 4), dt)
    v = fc.uniform((3, 4), dt)
    eps = fc.uniform((3, 4), dt)
    f = lambda a, b: F.gaussian(a, b, eps=eps.astype(a.dtype))  # noqa: E731
    fc.check_backward(f, (m, v), dt)
    fc.check_double_backward(f, (m, v), dt)


def test_gaussian_backward_uses_the_same_noise():
    m = chainer.Variable(numpy.zeros((4, 3), numpy.float32))
    v = chainer.Variable(numpy.zeros((4, 3), numpy.float32))
    y, eps = F.gaussian(m, v, return_eps=True)
    F.sum(y).backward()
    numpy.testing.assert_allclose(m.grad, numpy.ones((4, 3)))
    numpy.testing.assert_allclose(v.grad, eps * 0.5, rtol=1e-6)


def test_gaussian_edges_and_errors(fc):
    m = fc.uniform((3, 4), numpy.float32)
    y = F.gaussian(fc.noncontiguous(m), fc.noncontiguous(m), eps=numpy.zeros((3, 4), 'f'))
    numpy.testing.assert_allclose(y.array, m)
    assert F.gaussian(numpy.zeros((0, 2), 'f'), numpy.zeros((0, 2), 'f')).shape == (0, 2)
    assert F.gaussian(numpy.zeros((), 'f'), numpy.zeros((), 'f')).shape == ()
    with pytest.raises(InvalidType):
        F.gaussian(m, numpy.zeros((3, 5), numpy.float32))
    with pytest.raises(InvalidType):
        F.gaussian(m, m.astype(numpy.float64))
    with pytest.raises(InvalidType):
        F.gaussian(m, m, eps=numpy.zeros(3, numpy.float32))
    with pytest.raises(TypeError):
        F.gaussian(m, m, foo=1)


# -- gumbel_softmax ------------------------------------------------------------------------

def test_gumbel_softmax_structure(dtype):
    log_pi = numpy.log(numpy.array([[0.7, 0.2, 0.1]] * 3000)).astype(dtype)
    y = F.gumbel_softmax(log_pi, tau=0.01)
    assert y.dtype == dtype and y.shape == log_pi.shape
    numpy.testing.assert_allclose(_d(y.array).sum(axis=1), 1, rtol=1e-2)
    freq = (y.array.argmax(axis=1)[:, None] == numpy.arange(3)).mean(axis=0)
    numpy.testing.assert_allclose(freq, [0.7, 0.2, 0.1], atol=0.03)


def test_gumbel_softmax_axis_and_edges(fc):
    x = fc.uniform((2, 3, 4), numpy.float32)
    y = F.gumbel_softmax(x, tau=1.0, axis=2)
    numpy.testing.assert_allclose(y.array.sum(axis=2), 1, rtol=1e-5)
    numpy.testing.assert_array_equal(F.gumbel_softmax(numpy.asarray(0.3, 'f')).array, 1)
    assert F.gumbel_softmax(numpy.zeros((0, 3), numpy.float32)).shape == (0, 3)
    with pytest.raises(ValueError):
        F.gumbel_softmax(x, tau=0)
    with pytest.raises(InvalidType):
        F.gumbel_softmax(numpy.zeros((2, 3), numpy.int32))
    with pytest.raises(InvalidType):
        F.gumbel_softmax(x, axis=3)


def test_gumbel_softmax_gradient(fc):
    x = fc.uniform((2, 3), numpy.float64)
    state = numpy.random.get_state()

    def f(v):
        numpy.random.set_state(state)   # the same noise on every call
        return F.gumbel_softmax(v, tau=0.5)

    fc.check_backward(f, (x,), numpy.float64)
    fc.check_double_backward(f, (x,), numpy.float64)


# -- simplified_dropconnect --------------------------------------------------------------------

def _dropconnect_ref(x, W, b, mask, ratio):
    x2 = _d(x).reshape(len(x), -1)
    Wm = _d(W) * mask / (1 - ratio)
    if mask.ndim == 3:
        y = numpy.einsum('nk,njk->nj', x2, Wm)
    else:
        y = x2 @ Wm.T
    return y if b is None else y + _d(b)


@pytest.mark.parametrize('batchwise', [True, False])
@pytest.mark.parametrize('x_shape', [(4, 3), (4, 1, 3)])
def test_dropconnect_forward(fc, dtype, batchwise, x_shape):
    x = fc.uniform(x_shape, dtype)
    W = fc.uniform((2, 3), dtype)
    b = fc.uniform((2,), dtype)
    shape = (4, 2, 3) if batchwise else (2, 3)
    mask = numpy.random.rand(*shape) >= 0.3
    f = lambda *a: F.simplified_dropconnect(*a, ratio=0.3, mask=mask,  # noqa: E731
                                            use_batchwise_mask=batchwise)
    fc.check_forward(f, (x, W, b), _dropconnect_ref(x, W, b, mask, 0.3).astype(dtype), dtype)
    fc.check_forward(f, (x, W), _dropconnect_ref(x, W, None, mask, 0.3).astype(dtype), dtype)


@pytest.mark.parametrize('batchwise', [True, False])
@pytest.mark.parametrize('x_shape', [(4, 3), (4, 1, 3)])
@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_dropconnect_gradients(fc, dt, batchwise, x_shape):
    x = fc.uniform(x_shape, dt)
    W = fc.uniform((2, 3), dt)
    b = fc.uniform((2,), dt)
    mask = numpy.random.rand(*((4, 2, 3) if batchwise else (2, 3))) >= 0.5
    f = lambda *a: F.simplified_dropconnect(*a, mask=mask,  # noqa: E731
                                            use_batchwise_mask=batchwise)
    fc.check_backward(f, (x, W, b), dt)
    fc.check_double_backward(f, (x, W, b), dt)


def test_dropconnect_random_mask_and_test_mode(fc):
    x = numpy.ones((200, 50), numpy.float32)
    W = numpy.ones((3, 50), numpy.float32)
    y = F.simplified_dropconnect(x, W, ratio=0.2).array
    # each output is (number of kept weights) / 0.8: mean 50, varying per sample
    assert abs(y.mean() - 50) < 1
    assert y.std() > 1
    Wv = chainer.Variable(W)
    F.sum(F.simplified_dropconnect(x[:1], Wv, ratio=0.2, use_batchwise_mask=False)).backward()
    assert set(numpy.unique(Wv.grad).tolist()) <= {0.0, 1.25}
    b = numpy.arange(3, dtype=numpy.float32)
    y = F.simplified_dropconnect(x, W, b, ratio=0.2, train=False)
    numpy.testing.assert_allclose(y.array, numpy.full((200, 3), 50) + b)


def test_dropconnect_errors(fc):
    x = fc.uniform((4, 3), numpy.float32)
    W = fc.uniform((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.simplified_dropconnect(x, W, ratio=1.0)
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x, W, mask=numpy.ones((3, 2), bool))
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x, W, mask=numpy.ones((5, 2, 3), bool))
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x, fc.uniform((2, 4), numpy.float32))
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x, W.astype(numpy.int32))
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x, W, numpy.zeros(2, numpy.float64))   # b has x's dtype
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x, W, numpy.zeros(3, numpy.float32))
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(numpy.zeros(3, numpy.float32), W)
    y = F.simplified_dropconnect(numpy.zeros((0, 3), numpy.float32), W)
    assert y.shape == (0, 2)
    y = F.simplified_dropconnect(fc.noncontiguous(x), W, mask=numpy.ones((4, 2, 3), bool))
    numpy.testing.assert_allclose(y.array, x @ W.T * 2, rtol=1e-5)


@pytest.mark.parametrize('batchwise', [True, False])
@pytest.mark.parametrize('x_dt,w_dt', [(numpy.float16, numpy.float64),
                                       (numpy.float64, numpy.float32)], ids=['f16-f64', 'f64-f32'])
def test_dropconnect_mixed_dtypes(fc, batchwise, x_dt, w_dt):
    # as in v7, W may have another float dtype than x: y and gx have x's, gW has W's
    x = fc.uniform((4, 3), x_dt)
    W = fc.uniform((2, 3), w_dt)
    b = fc.uniform((2,), x_dt)
    mask = numpy.random.rand(*((4, 2, 3) if batchwise else (2, 3))) >= 0.5
    f = lambda *a: F.simplified_dropconnect(*a, ratio=0.5, mask=mask)  # noqa: E731
    fc.check_forward(f, (x, W, b), _dropconnect_ref(x, W, b, mask, 0.5).astype(x_dt), x_dt)
    xv, Wv, bv = chainer.Variable(x), chainer.Variable(W), chainer.Variable(b)
    y = f(xv, Wv, bv)
    gy = numpy.ones_like(y.array)
    y.grad = gy
    y.backward()
    assert (xv.grad.dtype, Wv.grad.dtype, bv.grad.dtype) == (x_dt, w_dt, x_dt)
    tol = {'atol': 5e-2, 'rtol': 5e-2} if x_dt == numpy.float16 else {}
    chainer.gradient_check.check_backward(f, (x, W, b), gy, dtype=numpy.float64,
                                          eps=1e-2, **tol)


def test_dropconnect_node_keeps_its_mask(fc):
    x = chainer.Variable(fc.uniform((4, 3), numpy.float32))
    W = chainer.Variable(fc.uniform((2, 3), numpy.float32))
    for batchwise, shape in ((True, (4, 2, 3)), (False, (2, 3))):
        y = F.simplified_dropconnect(x, W, ratio=0.5, use_batchwise_mask=batchwise)
        mask = y.creator.mask
        assert mask.shape == shape and mask.dtype == bool
        numpy.testing.assert_allclose(
            y.array, _dropconnect_ref(x.array, W.array, None, mask, 0.5), rtol=1e-5)
        # test mode: a linear function, the node's mask all True (of the same shape)
        y = F.simplified_dropconnect(x, W, ratio=0.5, train=False,
                                     use_batchwise_mask=batchwise)
        assert y.creator.mask.shape == shape and y.creator.mask.all()
        numpy.testing.assert_allclose(y.array, x.array @ W.array.T, rtol=1e-5)
    # a given mask decides whether it is batchwise (use_batchwise_mask is then ignored)
    mask = numpy.random.rand(2, 3) >= 0.5
    y = F.simplified_dropconnect(x, W, ratio=0.5, mask=mask, use_batchwise_mask=True)
    numpy.testing.assert_allclose(
        y.array, _dropconnect_ref(x.array, W.array, None, mask, 0.5), rtol=1e-5)


# -- zoneout -------------------------------------------------------------------------------

def test_zoneout_structure(dtype):
    h = numpy.random.uniform(-1, 1, (60, 50)).astype(dtype)
    x = numpy.random.uniform(2, 3, (60, 50)).astype(dtype)
    y = F.zoneout(h, x, ratio=0.3).array
    from_h = y == h
    assert ((y == x) | from_h).all()
    assert abs(from_h.mean() - 0.3) < 0.03


def test_zoneout_flags_consistent_in_backward():
    h = chainer.Variable(numpy.random.uniform(-1, 1, (5, 6)).astype(numpy.float32))
    x = chainer.Variable(numpy.random.uniform(2, 3, (5, 6)).astype(numpy.float32))
    y = F.zoneout(h, x)
    y.grad = numpy.full(y.shape, 2.0, numpy.float32)
    y.backward()
    from_h = y.array == h.array
    numpy.testing.assert_array_equal(h.grad, numpy.where(from_h, 2.0, 0.0))
    numpy.testing.assert_array_equal(x.grad, numpy.where(from_h, 0.0, 2.0))


def test_zoneout_node_flags_and_random_draw(monkeypatch):
    h = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    u = numpy.random.rand(3, 4)
    calls = []

    def rand(*shape):
        calls.append(shape)
        return u

    # one numpy.random.rand draw of x's shape per call (v7 tests fix it by patching)
    monkeypatch.setattr(numpy.random, 'rand', rand)
    y = F.zoneout(chainer.Variable(h), chainer.Variable(x), 0.4)
    assert calls == [(3, 4)]
    node = y.creator
    numpy.testing.assert_array_equal(node.flag_x, u >= 0.4)
    numpy.testing.assert_array_equal(node.flag_h, u < 0.4)
    numpy.testing.assert_array_equal(y.array, h * node.flag_h + x * node.flag_x)
    monkeypatch.undo()
    s = F.zoneout(numpy.asarray(1.0, 'f'), numpy.asarray(2.0, 'f'))   # 0-dim
    assert s.shape == () and float(s.array) in (1.0, 2.0)


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_zoneout_gradients(fc, dt):
    h = fc.uniform((3, 4), dt)
    x = fc.uniform((3, 4), dt)
    state = numpy.random.get_state()

    def f(a, b):
        numpy.random.set_state(state)
        return F.zoneout(a, b)

    fc.check_backward(f, (h, x), dt)
    fc.check_double_backward(f, (h, x), dt)


def test_zoneout_test_mode_and_errors(fc):
    h = fc.uniform((3, 4), numpy.float32)
    x = fc.uniform((3, 4), numpy.float32)
    with chainer.using_config('train', False):
        numpy.testing.assert_array_equal(F.zoneout(h, x).array, x)
    numpy.testing.assert_array_equal(F.zoneout(h, x, 0.0).array, x)
    numpy.testing.assert_array_equal(F.zoneout(h, x, 1.0).array, h)
    y = F.zoneout(fc.noncontiguous(h), fc.noncontiguous(x))
    assert ((y.array == h) | (y.array == x)).all()
    assert F.zoneout(numpy.zeros((0, 2), 'f'), numpy.zeros((0, 2), 'f')).shape == (0, 2)
    with pytest.raises(InvalidType):
        F.zoneout(h, numpy.zeros((4, 3), numpy.float32))
    with pytest.raises(InvalidType):
        F.zoneout(h, x.astype(numpy.float64))
    with pytest.raises(ValueError):
        F.zoneout(h, x, 1.5)
    with pytest.raises(ValueError, match='using_config'):
        F.zoneout(h, x, train=True)


# -- GPU ----------------------------------------------------------------------------------------

@pytest.mark.gpu
def test_noise_gpu(fc):
    cupy = pytest.importorskip('cupy')
    x = cupy.asarray(fc.uniform((30, 40), numpy.float32))
    y, mask = F.dropout(x, 0.5, return_mask=True)
    assert isinstance(mask, cupy.ndarray)
    cupy.testing.assert_allclose(y.array, x * mask)
    fc.check_backward(lambda v: F.dropout(v, mask=mask.astype(v.dtype)), (x,), numpy.float32)
    m, e = F.gaussian(x, x, return_eps=True)
    assert isinstance(e, cupy.ndarray)
    g = F.gumbel_softmax(x, tau=1.0)
    cupy.testing.assert_allclose(g.array.sum(axis=1), cupy.ones(30), rtol=1e-5)
    W = cupy.asarray(fc.uniform((5, 40), numpy.float32))
    assert F.simplified_dropconnect(x, W).shape == (30, 5)
    z = F.zoneout(x, x + 10)
    assert bool(((z.array == x) | (z.array == x + 10)).all())
