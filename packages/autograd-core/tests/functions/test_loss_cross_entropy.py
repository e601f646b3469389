"""Tests of softmax_cross_entropy (hard and soft targets) and sigmoid_cross_entropy."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.loss.softmax_cross_entropy import SoftmaxCrossEntropy
from chainer.utils.type_check import InvalidType


def _log_softmax(x):
    x = x.astype('d')
    m = x.max(axis=1, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))


def _hard_ref(x, t, class_weight=None, ignore_label=-1, normalize=True, reduce='mean'):
    """Per-label losses by explicit loops over (N, C, d...) and (N, d...)."""
    lp = _log_softmax(x)
    per = numpy.zeros(t.shape)
    for idx in numpy.ndindex(*t.shape):
        k = t[idx]
        if k == ignore_label:
            continue
        w = 1.0 if class_weight is None else class_weight[k]
        per[idx] = -w * lp[(idx[0], k) + idx[1:]]
    if reduce == 'no':
        return per
    count = (t != ignore_label).sum() if normalize else t.shape[0]
    return per.sum() / max(count, 1)


def _soft_ref(x, t, kind, reduce, class_weight=None):
    lp = _log_softmax(x)
    w = 1.0 if class_weight is None else class_weight.reshape(
        (1, -1) + (1,) * (x.ndim - 2))
    per = -(w * t * lp).sum(axis=1)
    if kind == 'kl-divergence':
        tlogt = numpy.where(t > 0, t * numpy.log(numpy.where(t > 0, t, 1)), 0)
        per = per + (w * tlogt).sum(axis=1)
    if reduce == 'no':
        return per
    return per.sum() / per.size


# -- softmax_cross_entropy, hard labels ------------------------------------------------

@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('cache_score', [True, False])
def test_softmax_cross_entropy_hard(fc, dtype, reduce, normalize, cache_score):
    x = fc.uniform((5, 4), dtype, -3, 3)
    t = numpy.array([0, 3, -1, 2, 1], numpy.int32)
    f = lambda x: F.softmax_cross_entropy(  # noqa: E731
        x, t, normalize=normalize, cache_score=cache_score, reduce=reduce)
    ref = _hard_ref(x, t, normalize=normalize, reduce=reduce)
    fc.check_forward(f, (x,), numpy.asarray(ref, dtype), dtype)
    fc.check_backward(f, (x,), dtype)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_softmax_cross_entropy_nd_weight_ignore(fc, reduce):
    x = fc.uniform((2, 3, 4), numpy.float64, -2, 2)
    t = numpy.array([[0, 1, 2, 1], [2, 2, 7, 0]], numpy.int32)
    w = numpy.array([1.0, 2.0, 0.5])
    kw = dict(class_weight=w, ignore_label=7, reduce=reduce)
    ref = _hard_ref(x, t, w, 7, reduce=reduce)
    f = lambda x: F.softmax_cross_entropy(x, t, **kw)  # noqa: E731
    fc.check_forward(f, (x,), numpy.asarray(ref), numpy.float64)
    fc.check_backward(f, (x,), numpy.float64)
    g = lambda x: F.softmax_cross_entropy(x, t, enable_double_backprop=True, **kw)  # noqa
    fc.check_forward(g, (x,), numpy.asarray(ref), numpy.float64)
    fc.check_backward(g, (x,), numpy.float64)
    fc.check_double_backward(g, (x,), numpy.float64)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_softmax_cross_entropy_double_backprop(fc, dtype, reduce):
    x = fc.uniform((4, 3), dtype, -2, 2)
    t = numpy.array([2, -1, 0, 1], numpy.int32)
    f = lambda x: F.softmax_cross_entropy(  # noqa: E731
        x, t, reduce=reduce, enable_double_backprop=True)
    fc.check_forward(f, (x,), numpy.asarray(_hard_ref(x, t, reduce=reduce), dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)
    # the default path gives the same first-order gradient
    xv = chainer.Variable(x.astype(numpy.float64))
    xw = chainer.Variable(x.astype(numpy.float64))
    gy = numpy.ones(() if reduce == 'mean' else (4,))
    g1, = chainer.grad([f(xv)], [xv], [gy])
    g2, = chainer.grad([F.softmax_cross_entropy(xw, t, reduce=reduce)], [xw], [gy])
    numpy.testing.assert_allclose(g1.array, g2.array, atol=1e-12)


def test_softmax_cross_entropy_stable_and_all_ignored():
    x = numpy.array([[1000.0, -1000.0, 0.0]], numpy.float32)
    t = numpy.array([0], numpy.int32)
    assert float(F.softmax_cross_entropy(x, t).array) == pytest.approx(0.0)
    assert numpy.isfinite(F.softmax_cross_entropy(x, t, enable_double_backprop=True).array)
    xv = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    loss = F.softmax_cross_entropy(xv, numpy.array([-1, -1], numpy.int32))
    loss.backward()
    assert float(loss.array) == 0.0 and (xv.grad == 0).all()


def test_softmax_cross_entropy_edge_shapes(fc):
    x = fc.uniform((3, 4), numpy.float32)
    t = numpy.array([1, 0, 3], numpy.int32)
    fc.check_forward(lambda x: F.softmax_cross_entropy(x, t), (fc.noncontiguous(x),),
                     numpy.asarray(_hard_ref(x, t), numpy.float32))
    e = numpy.zeros((0, 4), numpy.float32)
    te = numpy.zeros((0,), numpy.int32)
    assert float(F.softmax_cross_entropy(e, te).array) == 0.0
    assert F.softmax_cross_entropy(e, te, reduce='no').shape == (0,)


@pytest.mark.parametrize('cache_score', [True, False])
def test_softmax_cross_entropy_keeps_score_as_y(cache_score):
    x = numpy.array([[0.0, 1.0, 2.0], [1.0, 1.0, -1.0]], numpy.float32)
    loss = F.softmax_cross_entropy(chainer.Variable(x), numpy.array([2, 0], numpy.int32),
                                   cache_score=cache_score)
    y = loss.creator.y
    if cache_score:
        e = numpy.exp(x - x.max(axis=1, keepdims=True))
        numpy.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-6)
    else:
        assert y is None


def test_softmax_cross_entropy_keeps_no_score_without_backprop():
    # no graph, no backward: the score is not kept, the loss is the same
    x = numpy.random.RandomState(3).randn(4, 80).astype(numpy.float32)
    t = numpy.array([0, 5, 79, 3], numpy.int32)
    expected = F.softmax_cross_entropy(x, t).array
    node = SoftmaxCrossEntropy()
    with chainer.no_backprop_mode():
        loss, = node.apply((x, t))
    assert node.y is None
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-6)
    # the same node used again with a graph keeps the score and differentiates
    v = chainer.Variable(x)
    loss, = node.apply((v, t))
    loss.backward()
    assert node.y is not None
    e = numpy.exp(x - x.max(axis=1, keepdims=True))
    y = e / e.sum(axis=1, keepdims=True)
    y[numpy.arange(4), t] -= 1
    numpy.testing.assert_allclose(v.grad, y / 4, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize('normalize', [True, False])
@pytest.mark.parametrize('dbp', [False, True])
def test_softmax_cross_entropy_float16_large_batch_does_not_overflow(normalize, dbp):
    # the summed loss (about 2e5) is beyond float16; only the mean fits
    n = 300000
    x = numpy.tile(numpy.array([[-1.0, 1.0]], numpy.float16), (n, 1))
    t = numpy.zeros(n, numpy.int32)
    w = numpy.array([0.5, 2.0], numpy.float16)
    loss = F.softmax_cross_entropy(x, t, normalize=normalize, class_weight=w,
                                   enable_double_backprop=dbp)
    assert loss.dtype == numpy.float16
    assert float(loss.array) == pytest.approx(0.5 * numpy.logaddexp(0, 2.0), rel=2e-3)


# -- softmax_cross_entropy, soft targets -----------------------------------------------

def _soft_targets(fc, shape, dtype):
    t = fc.uniform(shape, numpy.float64, 0, 1)
    t[0, 0] = 0.0  # exercises 0 log 0
    return (t / t.sum(axis=1, keepdims=True)).astype(dtype)


@pytest.mark.parametrize('kind', ['cross-entropy', 'kl-divergence'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_softmax_cross_entropy_soft(fc, dtype, kind, reduce):
    x = fc.uniform((4, 3), dtype, -2, 2)
    t = _soft_targets(fc, (4, 3), dtype)
    ref = _soft_ref(x, t.astype('d'), kind, reduce)
    for dbp in (False, True):
        f = lambda x, dbp=dbp: F.softmax_cross_entropy(  # noqa: E731
            x, t, reduce=reduce, soft_target_loss=kind, enable_double_backprop=dbp)
        fc.check_forward(f, (x,), numpy.asarray(ref, dtype), dtype)
        if dtype != numpy.float16:
            fc.check_backward(f, (x,), dtype)
    if dtype == numpy.float64:
        fc.check_double_backward(f, (x,), dtype)


def test_softmax_cross_entropy_soft_nd_weighted(fc):
    x = fc.uniform((2, 3, 2), numpy.float64, -2, 2)
    t = _soft_targets(fc, (2, 3, 2), numpy.float64)
    w = numpy.array([0.5, 1.0, 2.0])
    ref = _soft_ref(x, t, 'kl-divergence', 'mean', w)
    for dbp in (False, True):
        f = lambda x, dbp=dbp: F.softmax_cross_entropy(  # noqa: E731
            x, t, class_weight=w, soft_target_loss='kl-divergence',
            enable_double_backprop=dbp)
        fc.check_forward(f, (x,), numpy.asarray(ref), numpy.float64)
        fc.check_backward(f, (x,), numpy.float64)
    # KL of a distribution from itself is zero
    t = _soft_targets(fc, (3, 4), numpy.float64)
    t[0, 0] = 0.1
    t /= t.sum(axis=1, keepdims=True)
    p = numpy.log(t) + 3.0
    assert abs(float(F.softmax_cross_entropy(
        p, t, soft_target_loss='kl-divergence').array)) < 1e-12


def test_softmax_cross_entropy_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, 1], numpy.int32)
    with pytest.raises(ValueError, match='labels'):
        F.softmax_cross_entropy(x, numpy.array([0, 3], numpy.int32))
    with pytest.raises(ValueError, match='labels'):
        F.softmax_cross_entropy(x, numpy.array([0, 3], numpy.int32),
                                enable_double_backprop=True)
    with pytest.raises(ValueError, match='reduce'):
        F.softmax_cross_entropy(x, t, reduce='sum')
    with pytest.raises(ValueError, match='soft_target_loss'):
        F.softmax_cross_entropy(x, t, soft_target_loss='mse')
    with pytest.raises(ValueError, match='class_weight'):
        F.softmax_cross_entropy(x, t, class_weight=numpy.ones(4, numpy.float32))
    with pytest.raises(ValueError, match='class_weight'):
        F.softmax_cross_entropy(x, t, class_weight=chainer.Variable(numpy.ones(3)))
    for dbp in (False, True):
        with pytest.raises(ValueError, match='class_weight'):
            F.softmax_cross_entropy(x, t, class_weight=numpy.ones(3, numpy.int32),
                                    enable_double_backprop=dbp)
    with pytest.raises(InvalidType):
        F.softmax_cross_entropy(x, t[:1])
    with pytest.raises(InvalidType):
        F.softmax_cross_entropy(x, numpy.zeros((2, 4), numpy.float32))
    with pytest.raises(InvalidType):
        F.softmax_cross_entropy(x[0], t[0], enable_double_backprop=True)
    with pytest.raises(InvalidType):
        F.softmax_cross_entropy(x.astype(numpy.int32), t)


# -- sigmoid_cross_entropy --------------------------------------------------------------

def _sigmoid_ref(x, t, normalize=True, reduce='mean'):
    xd = x.astype('d')
    per = (numpy.logaddexp(0, xd) - xd * t) * (t != -1)
    if reduce == 'no':
        return per
    count = (t != -1).sum() if normalize else x.shape[0]
    return per.sum() / max(count, 1)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('normalize', [True, False])
def test_sigmoid_cross_entropy(fc, dtype, reduce, normalize):
    x = fc.uniform((4, 3), dtype, -3, 3)
    t = numpy.array([[0, 1, -1], [1, 1, 0], [0, -1, 0], [1, 0, 1]], numpy.int32)
    f = lambda x: F.sigmoid_cross_entropy(x, t, normalize, reduce)  # noqa: E731
    fc.check_forward(f, (x,), numpy.asarray(_sigmoid_ref(x, t, normalize, reduce), dtype),
                     dtype)
    fc.check_backward(f, (x,), dtype)
    if dtype != numpy.float16:
        fc.check_double_backward(f, (x,), dtype)


def test_sigmoid_cross_entropy_edges(fc):
    x = fc.uniform((2, 3), numpy.float32, -3, 3)
    t = numpy.array([[0, 1, 1], [1, 0, -1]], numpy.int32)
    fc.check_forward(lambda x: F.sigmoid_cross_entropy(x, t), (fc.noncontiguous(x),),
                     numpy.asarray(_sigmoid_ref(x, t), numpy.float32))
    big = numpy.array([[1000.0, -1000.0]], numpy.float32)
    assert float(F.sigmoid_cross_entropy(big, numpy.array([[1, 0]], numpy.int32)).array) \
        == pytest.approx(0.0)
    assert float(F.sigmoid_cross_entropy(x, numpy.full((2, 3), -1, numpy.int32)).array) == 0
    e = numpy.zeros((0, 3), numpy.float32)
    assert F.sigmoid_cross_entropy(e, e.astype(numpy.int32), reduce='no').shape == (0, 3)
    with pytest.raises(ValueError, match='reduce'):
        F.sigmoid_cross_entropy(x, t, reduce='sum')
    with pytest.raises(InvalidType):
        F.sigmoid_cross_entropy(x, t[:1])
    with pytest.raises(InvalidType):
        F.sigmoid_cross_entropy(x, t.astype(numpy.float32))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_softmax_cross_entropy_of_large_shifted_logits_stays_exact(dtype):
    # logits far from zero: the loss depends only on their differences, and must not
    # lose digits to the size of the shift (as max + log(sum) would in low precision)
    rng = numpy.random.default_rng(4)
    base = rng.standard_normal((6, 5))
    t = rng.integers(0, 5, 6).astype(numpy.int32)
    for shift in (0.0, 1000.0):
        x = (base + shift).astype(dtype)
        exact = x.astype(numpy.float64) - shift  # the logits as stored, shifted back
        lse = numpy.log(numpy.exp(exact).sum(axis=1))
        expected = numpy.mean(lse - exact[numpy.arange(6), t])
        loss = F.softmax_cross_entropy(x, t)
        assert loss.dtype == dtype
        tol = 2e-2 if dtype == numpy.float16 else 1e-5
        numpy.testing.assert_allclose(float(loss.array), expected, rtol=tol, atol=tol)
