"""Elementwise activations: clipped_relu, relu6, crelu, elu, selu, hard_sigmoid,
leaky_relu, softplus, rrelu, prelu, swish, maxout."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _d(x):
    return x.astype(numpy.float64)


def _elu(x, alpha=1.0):
    x = _d(x)
    return numpy.where(x >= 0, x, alpha * numpy.expm1(numpy.minimum(x, 0)))


def _softplus(x, beta=1.0):
    return numpy.logaddexp(0, beta * _d(x)) / beta


SELU_A, SELU_S = 1.6732632423543772, 1.0507009873554805

# (name, function, reference, kink points to stay away from, twice differentiable)
ELEMENTWISE = [
    ('clipped_relu', lambda x: F.clipped_relu(x, 0.5),
     lambda x: numpy.clip(_d(x), 0, 0.5), (0, 0.5)),
    ('relu6', lambda x: F.relu6(x * 4) / 4, lambda x: numpy.clip(_d(x) * 4, 0, 6) / 4, (0, 1.5)),
    ('leaky_relu', F.leaky_relu, lambda x: numpy.where(x >= 0, _d(x), 0.2 * _d(x)), (0,)),
    ('leaky_relu_slope', lambda x: F.leaky_relu(x, slope=-0.5),
     lambda x: numpy.where(x >= 0, _d(x), -0.5 * _d(x)), (0,)),
    ('elu', F.elu, _elu, (0,)),
    ('elu_alpha', lambda x: F.elu(x, alpha=0.5), lambda x: _elu(x, 0.5), (0,)),
    ('selu', F.selu, lambda x: SELU_S * _elu(x, SELU_A), (0,)),
    ('hard_sigmoid', lambda x: F.hard_sigmoid(x * 4),
     lambda x: numpy.clip(0.2 * _d(x) * 4 + 0.5, 0, 1), (-2.5 / 4, 2.5 / 4)),
    ('softplus', F.softplus, _softplus, ()),
    ('softplus_beta', lambda x: F.softplus(x, beta=2.0), lambda x: _softplus(x, 2.0), ()),
]


def _away(fc, x, points):
    for p in points:
        x = fc.away_from(x, p, 0.05)
    return x


@pytest.mark.parametrize('name,fn,ref,kinks', ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
def test_elementwise_forward(fc, dtype, name, fn, ref, kinks):
    x = _away(fc, fc.uniform((3, 4), dtype), kinks)
    fc.check_forward(fn, (x,), ref(x).astype(dtype), dtype)
    nc = fc.noncontiguous(x)
    fc.check_forward(fn, (nc,), ref(x).astype(dtype), dtype)
    s = numpy.asarray(x[0, 0])
    fc.check_forward(fn, (s,), ref(s).astype(dtype), dtype)
    e = numpy.zeros((0, 2), dtype)
    fc.check_forward(fn, (e,), e, dtype)


@pytest.mark.parametrize('name,fn,ref,kinks', ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_elementwise_gradients(fc, dt, name, fn, ref, kinks):
    x = _away(fc, fc.uniform((3, 4), dt), kinks)
    fc.check_backward(fn, (x,), dt)
    fc.check_double_backward(fn, (x,), dt)


@pytest.mark.parametrize('name,fn,ref,kinks', ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
def test_elementwise_f16_backward_and_bad_input(fc, name, fn, ref, kinks):
    x = _away(fc, fc.uniform((2, 3), numpy.float16), kinks)
    fc.check_backward(fn, (x,), numpy.float16)
    with pytest.raises(InvalidType):
        fn(numpy.arange(4, dtype=numpy.int32))


def test_softplus_is_stable():
    x = numpy.array([-1000, -20, 0, 20, 1000], numpy.float32)
    y = F.softplus(x).array
    assert numpy.isfinite(y).all()
    numpy.testing.assert_allclose(y, numpy.logaddexp(0, x.astype('d')), rtol=1e-6)
    x16 = numpy.array([-100, 100], numpy.float16)
    assert numpy.isfinite(F.softplus(x16).array).all()
    y = chainer.Variable(numpy.array([-1000, 1000], numpy.float32))
    F.sum(F.softplus(y)).backward()
    numpy.testing.assert_allclose(y.grad, [0, 1])


def test_elu_large_inputs_no_warnings():
    x = numpy.array([-1000, 1000], numpy.float32)
    with numpy.errstate(all='raise'):
        y = F.elu(x)
        numpy.testing.assert_allclose(y.array, [-1, 1000])


@pytest.mark.parametrize('fn,grad_at_zero', [
    (F.leaky_relu, 0.2), (lambda x: F.leaky_relu(x, slope=-0.5), -0.5),
    (lambda x: F.elu(x, alpha=0.7), 0.7), (F.selu, SELU_S * SELU_A),
    (F.relu, 0.0), (lambda x: F.clipped_relu(x, 0.5), 0.0), (F.relu6, 0.0),
], ids=['leaky_relu', 'leaky_relu_negative', 'elu', 'selu', 'relu', 'clipped_relu', 'relu6'])
def test_gradient_at_zero_takes_the_negative_side(fn, grad_at_zero):
    # Chainer 7 treats x == 0 (either sign) as the non-positive branch.
    x = chainer.Variable(numpy.array([-0.0, 0.0], numpy.float64))
    y = fn(x)
    y.grad = numpy.ones(2)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [grad_at_zero] * 2, rtol=1e-12)
    numpy.testing.assert_array_equal(y.array, [0, 0])


def test_leaky_relu_zero_sign_with_negative_slope():
    # both zeros take the slope branch: -0.0 * -0.5 == +0.0, +0.0 * -0.5 == -0.0
    y = F.leaky_relu(numpy.array([-0.0, 0.0], numpy.float32), slope=-0.5).array
    assert list(numpy.signbit(y)) == [False, True]


def test_parameter_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.clipped_relu(x, z=0.0)
    with pytest.raises(TypeError):
        F.clipped_relu(x, z='1')
    with pytest.raises(ValueError):
        F.softplus(x, beta=0)


# -- crelu ---------------------------------------------------------------------

def _crelu(x, axis):
    return numpy.concatenate((numpy.maximum(_d(x), 0), numpy.maximum(-_d(x), 0)), axis=axis)


@pytest.mark.parametrize('shape,axis', [((3, 4), 1), ((3, 4), 0), ((2, 3, 2), -1)])
def test_crelu(fc, dtype, shape, axis):
    x = fc.away_from(fc.uniform(shape, dtype))
    f = lambda v: F.crelu(v, axis)  # noqa: E731
    fc.check_forward(f, (x,), _crelu(x, axis).astype(dtype), dtype)
    fc.check_backward(f, (x,), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (x,), dtype)


def test_crelu_edges(fc):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(F.crelu, (fc.noncontiguous(x),), _crelu(x, 1).astype('f'))
    e = numpy.zeros((0, 3), numpy.float32)
    assert F.crelu(e).shape == (0, 6)
    with pytest.raises(InvalidType):
        F.crelu(numpy.zeros(3, numpy.float32))  # axis 1 out of range
    with pytest.raises(InvalidType):
        F.crelu(numpy.zeros((2, 3), numpy.int32))


# -- rrelu ---------------------------------------------------------------------

def test_rrelu_train(fc, dtype):
    x = fc.away_from(fc.uniform((4, 5), dtype))
    y, r = F.rrelu(x, return_r=True)
    assert r.shape == x.shape and r.dtype == x.dtype
    assert ((r >= 1 / 8) & (r <= 1 / 3 + 1e-3)).all()
    ref = numpy.where(x >= 0, _d(x), _d(x) * _d(r))
    fc.check_forward(lambda v: F.rrelu(v, r=r), (x,), ref.astype(dtype), dtype)
    numpy.testing.assert_allclose(y.array, ref.astype(dtype), rtol=1e-3)


def test_rrelu_random_statistics():
    x = -numpy.ones((200, 100), numpy.float32)
    _, r = F.rrelu(x, l=0.1, u=0.3, return_r=True)
    assert abs(r.mean() - 0.2) < 0.005
    assert r.min() >= 0.1 and r.max() <= 0.3
    _, r2 = F.rrelu(x, l=0.1, u=0.3, return_r=True)
    assert not numpy.array_equal(r, r2)


def test_rrelu_test_mode(fc):
    x = fc.uniform((3, 4), numpy.float32)
    with chainer.using_config('train', False):
        y, r = F.rrelu(x, l=0.1, u=0.3, return_r=True)
    numpy.testing.assert_allclose(r, numpy.full(x.shape, 0.2, numpy.float32))
    numpy.testing.assert_allclose(y.array, numpy.where(x >= 0, x, 0.2 * x), rtol=1e-6)


@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_rrelu_gradients(fc, dt):
    x = fc.away_from(fc.uniform((3, 4), dt))
    r = fc.uniform((3, 4), dt, 0.125, 0.3)
    f = lambda v: F.rrelu(v, r=r.astype(v.dtype))  # noqa: E731
    fc.check_backward(f, (x,), dt)
    fc.check_double_backward(f, (x,), dt)
    x = chainer.Variable(x)
    y, r_used = F.rrelu(x, return_r=True)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.where(x.array >= 0, 1, r_used))


def test_rrelu_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.rrelu(x, l=0.5, u=0.2)
    with pytest.raises(ValueError):
        F.rrelu(x, l=-0.1)
    with pytest.raises(ValueError):
        F.rrelu(x, u=1.5)
    with pytest.raises(ValueError, match='using_config'):
        F.rrelu(x, train=True)
    with pytest.raises(TypeError):
        F.rrelu(x, foo=1)
    with pytest.raises(InvalidType):
        F.rrelu(x, r=numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(InvalidType):
        F.rrelu(numpy.zeros(3, numpy.int32))
    e = numpy.zeros((0, 4), numpy.float32)
    assert F.rrelu(e).shape == (0, 4)


# -- prelu and swish -------------------------------------------------------------

WEIGHT_CASES = [((4, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 2, 2), (3, 2)), ((3, 4), ())]


def _bcast(w, x_ndim):
    return w.reshape((1,) + w.shape + (1,) * (x_ndim - w.ndim - 1))


@pytest.mark.parametrize('xs,ws', WEIGHT_CASES)
def test_prelu(fc, dtype, xs, ws):
    x = fc.away_from(fc.uniform(xs, dtype))
    W = fc.uniform(ws, dtype)
    ref = numpy.where(x >= 0, _d(x), _d(x) * _bcast(_d(W), x.ndim))
    fc.check_forward(F.prelu, (x, W), ref.astype(dtype), dtype)
    if dtype == numpy.float16:
        fc.check_backward(F.prelu, (x, W), dtype)
    else:
        fc.check_backward(F.prelu, (x, W), dtype)
        fc.check_double_backward(F.prelu, (x, W), dtype)


@pytest.mark.parametrize('xs,ws', WEIGHT_CASES)
def test_swish(fc, dtype, xs, ws):
    x = fc.uniform(xs, dtype, -2, 2)
    beta = fc.uniform(ws, dtype, 0.5, 2)
    bx = _bcast(_d(beta), x.ndim) * _d(x)
    ref = _d(x) / (1 + numpy.exp(-bx))
    fc.check_forward(F.swish, (x, beta), ref.astype(dtype), dtype)
    fc.check_backward(F.swish, (x, beta), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(F.swish, (x, beta), dtype)


@pytest.mark.parametrize('fn', [F.prelu, F.swish])
def test_weighted_fast_and_graph_gradients_agree(fc, fn):
    x = fc.away_from(fc.uniform((3, 4, 2), numpy.float64))
    w = fc.uniform((4,), numpy.float64)
    gy = fc.uniform((3, 4, 2), numpy.float64)
    res = []
    for double in (False, True):
        xv, wv = chainer.Variable(x), chainer.Variable(w)
        gx, gw = chainer.grad([fn(xv, wv)], [xv, wv], [chainer.Variable(gy)],
                              enable_double_backprop=double)
        res.append((gx.array, gw.array))
    numpy.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-12)
    numpy.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-12)


@pytest.mark.parametrize('fn', [F.prelu, F.swish])
def test_weighted_edges_and_errors(fc, fn):
    x = fc.uniform((3, 4), numpy.float32)
    w = fc.uniform((4,), numpy.float32)
    numpy.testing.assert_allclose(fn(fc.noncontiguous(x), w).array, fn(x, w).array)
    assert fn(numpy.zeros((0, 4), numpy.float32), w).shape == (0, 4)
    with pytest.raises(InvalidType):
        fn(x, numpy.zeros(3, numpy.float32))          # shape mismatch
    with pytest.raises(InvalidType):
        fn(x, numpy.zeros(4, numpy.float64))          # dtype mismatch
    with pytest.raises(InvalidType):
        fn(numpy.zeros(4, numpy.float32), w)          # W covers the batch axis


# -- maxout ----------------------------------------------------------------------

def _maxout(x, pool, axis):
    s = x.shape
    g = s[:axis] + (s[axis] // pool, pool) + s[axis + 1:]
    return x.reshape(g).max(axis=axis + 1)


@pytest.mark.parametrize('shape,pool,axis', [((3, 6), 2, 1), ((3, 6), 3, 1), ((4, 2), 2, 0),
                                             ((2, 4, 3), 2, 1), ((2, 3, 4), 4, -1)])
def test_maxout(fc, dtype, shape, pool, axis):
    x = numpy.random.permutation(numpy.prod(shape)).reshape(shape).astype(dtype) / 10
    f = lambda v: F.maxout(v, pool, axis)  # noqa: E731
    fc.check_forward(f, (x,), _maxout(x, pool, axis % x.ndim), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_maxout_ties_all_get_the_gradient():
    # as Chainer 7 (reshape + max): every unit equal to its group's maximum
    x = chainer.Variable(numpy.array([[1., 1., 0., 2., 2., 2.],
                                      [-1., -1., 3., 3., 0., 0.]], numpy.float32))
    y = F.maxout(x, 2)
    numpy.testing.assert_array_equal(y.array, [[1, 2, 2], [-1, 3, 0]])
    y.grad = numpy.array([[1, 2, 3], [4, 5, 6]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 1, 0, 2, 3, 3], [4, 4, 5, 5, 6, 6]])


def test_maxout_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    numpy.testing.assert_allclose(F.maxout(fc.noncontiguous(x), 2).array, _maxout(x, 2, 1))
    assert F.maxout(numpy.zeros((0, 4), numpy.float32), 2).shape == (0, 2)
    v = chainer.Variable(numpy.zeros((0, 4), numpy.float32))
    y = F.maxout(v, 2)
    y.grad = numpy.zeros((0, 2), numpy.float32)
    y.backward()
    assert v.grad.shape == (0, 4)
    with pytest.raises(InvalidType, match='divided by pool_size'):  # as Chainer 7
        F.maxout(x, 3)
    with pytest.raises(ValueError):
        F.maxout(x, 0)
    with pytest.raises(ValueError):
        F.maxout(x, 2, axis=2)
    with pytest.raises(InvalidType):
        F.maxout(numpy.zeros((2, 4), numpy.int32), 2)


# -- GPU -----------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize('name,fn,ref,kinks', ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
def test_elementwise_gpu(fc, name, fn, ref, kinks):
    cupy = pytest.importorskip('cupy')
    x = _away(fc, fc.uniform((3, 4), numpy.float32), kinks)
    y = fn(cupy.asarray(x))
    assert isinstance(y.array, cupy.ndarray)
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), ref(x), rtol=1e-4, atol=1e-5)
    fc.check_backward(fn, (cupy.asarray(x),), numpy.float32)
    fc.check_double_backward(fn, (cupy.asarray(x),), numpy.float32)


@pytest.mark.gpu
def test_weighted_and_random_gpu(fc):
    cupy = pytest.importorskip('cupy')
    x = cupy.asarray(fc.away_from(fc.uniform((3, 4), numpy.float32)))
    w = cupy.asarray(fc.uniform((4,), numpy.float32))
    for fn in (F.prelu, F.swish):
        fc.check_backward(fn, (x, w), numpy.float32)
        fc.check_double_backward(fn, (x, w), numpy.float32)
    fc.check_backward(lambda v: F.crelu(v), (x,), numpy.float32)
    fc.check_backward(lambda v: F.maxout(v, 2), (x,), numpy.float32)
    y, r = F.rrelu(x, return_r=True)
    assert isinstance(r, cupy.ndarray)
    cupy.testing.assert_allclose(y.array, cupy.where(x >= 0, x, x * r))


ZERO_DIM = [('sigmoid', F.sigmoid), ('tanh', F.tanh)] + [(e[0], e[1]) for e in ELEMENTWISE]


@pytest.mark.parametrize('name,fn', ZERO_DIM, ids=[e[0] for e in ZERO_DIM])
@pytest.mark.parametrize('dt', [numpy.float16, numpy.float32], ids=['f16', 'f32'])
def test_zero_dim_keeps_dtype_through_double_backward(name, fn, dt):
    # NumPy 1.x widens e.g. ``1 - y`` on 0-dim arrays to float64: every order keeps dt
    x = chainer.Variable(numpy.asarray(0.3, dt))
    y = fn(x)
    gx, = chainer.grad([y], [x], [chainer.Variable(numpy.asarray(0.4, dt))],
                       enable_double_backprop=True)
    ggx, = chainer.grad([gx], [x], [chainer.Variable(numpy.asarray(0.7, dt))])
    assert y.dtype == gx.dtype == dt
    assert ggx is None or ggx.dtype == dt
    assert isinstance(gx.array, numpy.ndarray) and gx.shape == ()
