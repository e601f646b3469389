import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def test_relu(fc, dtype):
    x = fc.away_from(fc.uniform((3, 4), dtype))
    fc.check_forward(F.relu, (x,), numpy.maximum(x, 0), dtype)
    fc.check_backward(F.relu, (x,), dtype)
    fc.check_double_backward(F.relu, (x,), dtype)


def test_relu_noncontiguous_and_empty(fc):
    x = fc.noncontiguous(fc.uniform((3, 4), numpy.float32))
    fc.check_forward(F.relu, (x,), numpy.maximum(x, 0))
    e = numpy.zeros((0, 3), numpy.float32)
    fc.check_forward(F.relu, (e,), e)


def test_relu_rejects_int():
    with pytest.raises(InvalidType, match='ReLU'):
        F.relu(numpy.arange(3))


def test_linear(fc, dtype):
    x = fc.uniform((4, 3), dtype)
    W = fc.uniform((2, 3), dtype)
    b = fc.uniform((2,), dtype)
    fc.check_forward(F.linear, (x, W, b), x.astype('d') @ W.T.astype('d') + b, dtype)
    fc.check_backward(F.linear, (x, W, b), dtype)
    fc.check_double_backward(F.linear, (x, W, b), dtype)


@pytest.mark.parametrize('batch', [1, 2, 8, 9, 20, 24, 25, 48, 113])
def test_linear_small_batch_route(fc, dtype, batch):
    # batches of 2 to 24 rows against a large weight take the W x^T route on CPU
    x = fc.uniform((batch, 600), dtype)
    W = fc.uniform((700, 600), dtype)
    b = fc.uniform((700,), dtype)
    y = F.linear(x, W, b).array
    assert y.flags.c_contiguous and y.dtype == dtype and y.shape == (batch, 700)
    fc.check_forward(F.linear, (x, W, b), x.astype('d') @ W.T.astype('d') + b, dtype)
    fc.check_forward(F.linear, (fc.noncontiguous(x), W),
                     x.astype('d') @ W.T.astype('d'), dtype)


def test_linear_n_batch_axes(fc):
    x = fc.uniform((2, 3, 4), numpy.float32)
    W = fc.uniform((5, 4), numpy.float32)
    y = F.linear(x, W, n_batch_axes=2)
    assert y.shape == (2, 3, 5)
    fc.check_backward(lambda x, W: F.linear(x, W, n_batch_axes=2), (x, W))
    y = F.linear(x, fc.uniform((5, 12), numpy.float32))
    assert y.shape == (2, 5)


def test_linear_shape_mismatch_message():
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((4, 5), numpy.float32)
    with pytest.raises(InvalidType) as e:
        F.linear(x, W)
    text = str(e.value)
    assert 'LinearFunction' in text
    assert 'x.shape[1] == W.shape[1]' in text
    assert '3 != 5' in text


@pytest.mark.parametrize('fn,ref', [
    (F.sigmoid, lambda x: 1 / (1 + numpy.exp(-x))),
    (F.tanh, numpy.tanh),
    (F.exp, numpy.exp),
])
def test_elementwise(fc, dtype, fn, ref):
    x = fc.uniform((3, 2), dtype)
    fc.check_forward(fn, (x,), ref(x.astype('d')).astype(dtype), dtype)
    fc.check_backward(fn, (x,), dtype)
    fc.check_double_backward(fn, (x,), dtype)


def test_sigmoid_is_stable():
    x = numpy.array([-1000, 1000], numpy.float32)
    y = F.sigmoid(x).array
    assert numpy.isfinite(y).all()
    numpy.testing.assert_allclose(y, [0, 1])


def test_log(fc, dtype):
    x = fc.uniform((3, 2), dtype, 0.5, 2)
    fc.check_forward(F.log, (x,), numpy.log(x), dtype)
    fc.check_backward(F.log, (x,), dtype)
    fc.check_double_backward(F.log, (x,), dtype)


@pytest.mark.parametrize('axis,keepdims', [(None, False), (0, False), (1, True), ((0, 2), False),
                                           (-1, False)])
def test_sum(fc, dtype, axis, keepdims):
    x = fc.uniform((2, 3, 4), dtype)
    f = lambda x: F.sum(x, axis=axis, keepdims=keepdims)  # noqa: E731
    fc.check_forward(f, (x,), x.sum(axis=axis, keepdims=keepdims), dtype)
    fc.check_backward(f, (x,), dtype)
    fc.check_double_backward(f, (x,), dtype)


def test_sum_bad_axis():
    with pytest.raises(InvalidType):
        F.sum(numpy.zeros((2, 3), numpy.float32), axis=2)
    with pytest.raises(ValueError):
        F.sum(numpy.zeros((2, 3), numpy.float32), axis=(0, 0))


def test_mean_and_weighted_average(fc):
    x = fc.uniform((3, 4), numpy.float64)
    w = fc.uniform((4,), numpy.float64, 0.1, 1)
    fc.check_forward(F.mean, (x,), x.mean())
    fc.check_forward(lambda x, w: F.average(x, axis=1, weights=w), (x, w),
                     numpy.average(x, axis=1, weights=w))
    fc.check_backward(lambda x, w: F.average(x, axis=1, weights=w), (x, w), numpy.float64)


@pytest.mark.parametrize('sa,sb,ta,tb', [((3, 4), (4, 2), False, False),
                                          ((4, 3), (4, 2), True, False),
                                          ((3, 4), (2, 4), False, True),
                                          ((2, 3, 4), (2, 4, 5), False, False),
                                          ((2, 3, 4), (4, 5), False, False),
                                          ((4,), (4, 2), False, False)])
def test_matmul(fc, dtype, sa, sb, ta, tb):
    a = fc.uniform(sa, dtype)
    b = fc.uniform(sb, dtype)
    A = a.swapaxes(-1, -2) if ta else a
    B = b.swapaxes(-1, -2) if tb else b
    f = lambda a, b: F.matmul(a, b, transa=ta, transb=tb)  # noqa: E731
    fc.check_forward(f, (a, b), numpy.matmul(A.astype('d'), B.astype('d')), dtype)
    fc.check_backward(f, (a, b), dtype)
    fc.check_double_backward(f, (a, b), dtype)


def test_mean_squared_error(fc, dtype):
    a = fc.uniform((3, 4), dtype)
    b = fc.uniform((3, 4), dtype)
    fc.check_forward(F.mean_squared_error, (a, b), ((a.astype('d') - b) ** 2).mean(), dtype)
    fc.check_backward(F.mean_squared_error, (a, b), dtype)
    fc.check_double_backward(F.mean_squared_error, (a, b), dtype)
    with pytest.raises(InvalidType):
        F.mean_squared_error(a, b[:2])


def _log_softmax(x):
    m = x.max(axis=1, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))


@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('normalize', [True, False])
def test_softmax_cross_entropy(fc, dtype, reduce, normalize):
    x = fc.uniform((5, 4), dtype, -3, 3)
    t = numpy.array([0, 3, -1, 2, 1], numpy.int32)
    lp = _log_softmax(x.astype('d'))
    per = numpy.array([-lp[i, ti] if ti != -1 else 0 for i, ti in enumerate(t)])
    if reduce == 'mean':
        expected = per.sum() / (4 if normalize else 5)
    else:
        expected = per
    f = lambda x: F.softmax_cross_entropy(x, t, normalize=normalize, reduce=reduce)  # noqa
    fc.check_forward(f, (x,), numpy.asarray(expected, dtype), dtype)
    fc.check_backward(f, (x,), dtype)


def test_softmax_cross_entropy_nd_and_class_weight(fc):
    x = fc.uniform((2, 3, 4), numpy.float64)
    t = numpy.array([[0, 1, 2, 1], [2, 2, -1, 0]], numpy.int32)
    w = numpy.array([1.0, 2.0, 0.5])
    lp = _log_softmax(x)
    total = 0.0
    for n in range(2):
        for k in range(4):
            if t[n, k] != -1:
                total -= w[t[n, k]] * lp[n, t[n, k], k]
    f = lambda x: F.softmax_cross_entropy(x, t, class_weight=w)  # noqa: E731
    fc.check_forward(f, (x,), total / 7, numpy.float64)
    fc.check_backward(f, (x,), numpy.float64)


def test_softmax_cross_entropy_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='labels'):
        F.softmax_cross_entropy(x, numpy.array([0, 3], numpy.int32))
    with pytest.raises(InvalidType):
        F.softmax_cross_entropy(x, numpy.array([0.0, 1.0], numpy.float32)[:, None][:, 0]
                                .astype(numpy.int32)[:1])
    with pytest.raises(ValueError, match='reduce'):
        F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32), reduce='sum')


def test_sigmoid_cross_entropy(fc, dtype):
    x = fc.uniform((4, 3), dtype, -3, 3)
    t = numpy.array([[0, 1, -1], [1, 1, 0], [0, -1, 0], [1, 0, 1]], numpy.int32)
    xd = x.astype('d')
    p = 1 / (1 + numpy.exp(-xd))
    per = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p)) * (t != -1)
    fc.check_forward(lambda x: F.sigmoid_cross_entropy(x, t), (x,),
                     numpy.asarray(per.sum() / 10, dtype), dtype)
    fc.check_forward(lambda x: F.sigmoid_cross_entropy(x, t, normalize=False), (x,),
                     numpy.asarray(per.sum() / 4, dtype), dtype)
    fc.check_forward(lambda x: F.sigmoid_cross_entropy(x, t, reduce='no'), (x,),
                     per.astype(dtype), dtype)
    fc.check_backward(lambda x: F.sigmoid_cross_entropy(x, t), (x,), dtype)


def test_sigmoid_cross_entropy_large_logits_stable():
    x = numpy.array([[1000.0, -1000.0]], numpy.float32)
    t = numpy.array([[1, 0]], numpy.int32)
    assert float(F.sigmoid_cross_entropy(x, t).array) == pytest.approx(0.0)


def test_accuracy():
    y = numpy.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]], numpy.float32)
    t = numpy.array([1, 0, 0, -1], numpy.int32)
    assert float(F.accuracy(y, t).array) == pytest.approx(0.5)
    assert float(F.accuracy(y, t, ignore_label=-1).array) == pytest.approx(2 / 3)
    assert F.accuracy(y, t).dtype == numpy.float32
    with pytest.raises(InvalidType):
        F.accuracy(y, t[:2])


def test_binary_accuracy():
    y = numpy.array([[-1.0], [2.0], [0.5], [-0.2]], numpy.float32)
    t = numpy.array([[0], [1], [0], [-1]], numpy.int32)
    assert float(F.binary_accuracy(y, t).array) == pytest.approx(2 / 3)


@pytest.mark.parametrize('index', [1, (slice(None), 2), (Ellipsis, None, 1),
                                   ([0, 2, 0],), (numpy.array([True, False, True]),),
                                   (slice(None, None, -1), slice(1, 3))])
def test_get_item(fc, index):
    x = fc.uniform((3, 4), numpy.float64)
    f = lambda x: F.get_item(x, index)  # noqa: E731
    fc.check_forward(f, (x,), x[index], numpy.float64)
    fc.check_backward(f, (x,), numpy.float64)
    fc.check_double_backward(f, (x,), numpy.float64)


def test_reshape_transpose_broadcast(fc):
    x = fc.uniform((2, 3), numpy.float64)
    fc.check_forward(lambda x: F.reshape(x, (3, -1)), (x,), x.reshape(3, 2))
    fc.check_backward(lambda x: F.reshape(x, (6,)), (x,), numpy.float64)
    fc.check_forward(F.transpose, (x,), x.T)
    y = fc.uniform((2, 3, 4), numpy.float64)
    fc.check_backward(lambda y: F.transpose(y, (2, 0, 1)), (y,), numpy.float64)
    fc.check_backward(lambda x: F.broadcast_to(x, (4, 2, 3)), (x,), numpy.float64)
    fc.check_backward(lambda y: F.sum_to(y, (1, 4)), (y,), numpy.float64)
    with pytest.raises(ValueError, match='reshape'):
        F.reshape(x, (4, 2))


def test_variable_operators(fc):
    a = fc.uniform((2, 3), numpy.float64, 0.5, 1.5)
    b = fc.uniform((3,), numpy.float64, 0.5, 1.5)
    ops = [
        (lambda a, b: a + b, a + b), (lambda a, b: a - b, a - b),
        (lambda a, b: a * b, a * b), (lambda a, b: a / b, a / b),
        (lambda a, b: a ** b, a ** b), (lambda a, b: 2.0 - a * 3 + b / 2, 2.0 - a * 3 + b / 2),
        (lambda a, b: 1 / a + 2 ** b - abs(-a), 1 / a + 2 ** b - abs(-a)),
        (lambda a, b: a ** 2 + (-b), a ** 2 - b),
    ]
    for f, expected in ops:
        fc.check_forward(f, (a, b), expected, numpy.float64)
        fc.check_backward(f, (a, b), numpy.float64)
        fc.check_double_backward(f, (a, b), numpy.float64)


def test_matmul_operator():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    b = numpy.ones((3, 4), numpy.float32)
    y = a @ b
    assert y.shape == (2, 4)
    y.grad = numpy.ones((2, 4), numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(a.grad, numpy.full((2, 3), 4.0))


def test_operator_dtype_mismatch():
    a = chainer.Variable(numpy.ones(3, numpy.float32))
    with pytest.raises(InvalidType):
        a + chainer.Variable(numpy.ones(3, numpy.float64))
    # an array constant is cast to the Variable's dtype (as in v7)
    assert (a + numpy.ones(3, numpy.float64)).dtype == numpy.float32
    with pytest.raises(TypeError):
        a + 'x'
